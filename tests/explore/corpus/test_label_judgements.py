"""This round's labels against their blind judgement: what was judged is what the shipped build gives, and every
source that ships is right at least 90% of the time on its latest round."""
from __future__ import annotations

import pytest

from explore.corpus.label_judgements import JUDGED, MIN_PRECISION, Precision, label_precision, labelled_items, \
    load_judgements


@pytest.fixture(scope="module")
def shipped_vital():
    from explore.corpus.shipped import SHIPPED_CORPORA_DIR
    from explore.corpus.store import load_corpus

    return load_corpus(SHIPPED_CORPORA_DIR / "vital")


def test_every_judged_label_is_what_the_shipped_build_gives(shipped_vital):
    """A rule change that moves a judged label fails here: judge it again (scripts/label_judgement_sheets.py)."""
    items = load_judgements()
    assert len(items) > 1000
    for item in items:
        article = shipped_vital[item["id"]]
        assert article.label_source(item["aspect"]) == item["source"], item
        assert list(article.labels(item["aspect"], inferred=True)) == item["labels"], item


def test_every_source_that_ships_was_judged_and_is_right_at_least_90_percent(shipped_vital):
    table = {(p.aspect, p.source): p for p in label_precision()}
    for aspect, source in JUDGED:
        shipped = len(labelled_items(shipped_vital, aspect, source))
        if not shipped:
            continue  # not shipped: nothing to hold to the bar
        precision = table[(aspect, source)]
        assert precision.judged >= min(0.9 * 200, 0.9 * shipped), (aspect, source, precision.judged)
        assert precision.value >= MIN_PRECISION, (aspect, source, precision.value)


def test_precision_and_its_interval():
    p = Precision("kind", "description", 200, 190)
    low, high = p.wilson()
    assert p.value == 0.95 and 0.91 < low < 0.95 < high < 0.98 and p.shipped
    assert not Precision("occupation", "table", 5, 3).shipped
    latest = label_precision([{"aspect": "kind", "source": "description", "verdict": "wrong", "round": 1},
                              {"aspect": "kind", "source": "description", "verdict": "right", "round": 2},
                              {"aspect": "kind", "source": "description", "verdict": "unsure", "round": 2}])
    kind = next(p for p in latest if p.aspect == "kind")
    assert (kind.judged, kind.right, kind.round) == (1, 1, 2)
