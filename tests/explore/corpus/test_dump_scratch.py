"""The dump import's on-disk tables answer as the dicts they replace: the first title or id kept wins, a title claims
a link before any redirect does, links resolve in the order asked ((None, None) for no article), and the file is gone once closed."""
from __future__ import annotations

from explore.corpus.dump_scratch import LinkTargets, SeenPages


def test_seen_pages_name_the_first_line_of_a_title_then_of_an_id(tmp_path):
    seen = SeenPages(tmp_path / "seen.sqlite")
    seen.add([("Paris", "Q90", 2), ("Lyon", "Q456", 4)])
    seen.add([("Paris", "Q999", 6)])  # a later line with a title kept before: the first line stays
    assert seen.first("Paris", "Q1") == ("title", 2)
    assert seen.first("Marseille", "Q456") == ("id", 4)
    assert seen.first("Paris", "Q456") == ("title", 2)  # the title is named first, as the import always did
    assert seen.first("Marseille", "Q23482") is None
    assert seen.first("paris", "q90") is None  # exact, case and all
    seen.close()
    assert not (tmp_path / "seen.sqlite").exists()


def test_a_stale_file_is_replaced_not_read(tmp_path):
    (tmp_path / "seen.sqlite").write_bytes(b"left by a killed import, not a database")
    seen = SeenPages(tmp_path / "seen.sqlite")
    assert seen.first("Paris", "Q90") is None
    seen.close()


def test_titles_claim_links_before_redirects_and_the_first_claim_wins(tmp_path):
    targets = LinkTargets(tmp_path / "targets.sqlite")
    targets.add([("Paris", 0, "Q90"), ("Lyon", 1, "Q456"), ("Paris", 2, "Q999")])  # titles, dump order
    targets.add([("City of light", 0, "Q90"), ("Lyon", 0, "Q90"), ("Lugdunum", 1, "Q456")])  # then redirects
    assert targets.resolve(["Lyon", "Nowhere", "Paris", "Lugdunum", "City of light", "Lyon", "Tōkyō"]) == \
        [(1, "Q456"), (None, None), (0, "Q90"), (1, "Q456"), (0, "Q90"), (1, "Q456"), (None, None)]
    assert targets.resolve([]) == []
    targets.close()
    assert not (tmp_path / "targets.sqlite").exists()


def test_keys_with_quotes_and_non_ascii_resolve(tmp_path):
    targets = LinkTargets(tmp_path / "targets.sqlite")
    odd = ['Say "hello"', "Back\\slash", "東京", "Zoë's café", "Tab\there"]
    targets.add((key, row, f"Q{row}") for row, key in enumerate(odd))
    assert targets.resolve(list(reversed(odd))) == [(row, f"Q{row}") for row in reversed(range(len(odd)))]
    targets.close()
