"""Explore's columns on the shipped judgements (training/judged_columns.py): the shipped judged table is what the
code serves now, and every column drawn meets the bar it was chosen under."""
import json
from pathlib import Path

import pytest

from training.column_choice import BAR

ROOT = Path(__file__).resolve().parents[2]
POOLS = sorted((p for p in (ROOT / "assets" / "judgements").glob("vital-pool*.json") if p.stem[10:].isdigit()),
               key=lambda p: int(p.stem[10:]))  # every pool, the first (the frozen columns) first
SHIPPED = ROOT / "assets" / "reports" / "vital-judged.json"


def test_the_shipped_judged_table_is_what_explore_serves_and_every_column_meets_the_bar(tmp_path):
    from explore.corpus.registry import open_corpus
    from explore.neighbours import Neighbourhood
    from training.judged_columns import BASELINES, figures_of, frozen_lists, served_lists
    from training.judged_report import JudgedReport
    from training.judgements import Judgements

    corpus = open_corpus("vital")
    engine = Neighbourhood.open(corpus)
    judgements = Judgements.load(*POOLS)
    report = JudgedReport(corpus.name, [f"assets/judgements/{p.name}" for p in POOLS], judgements.pairs())
    report.add("Explore's columns, served now", figures_of(engine, judgements, served_lists(engine, judgements.seeds)))
    report.add("The columns as judged (the release the first pool froze)",
               figures_of(engine, judgements, frozen_lists(POOLS[0])))
    shipped = json.loads(SHIPPED.read_text())
    now, before = (report.blocks[name] for name in report.blocks)
    for column, figures in now.items():
        assert figures == pytest.approx(shipped["blocks"]["Explore's columns, served now"][column]), column
        if column in BASELINES:
            continue  # links, Wikipedia's Read more and generic: what the columns are compared to
        assert figures["precision_vs_generic"] >= BAR, column  # worth reading ≥ 0.9 × generic's
        if column in before:  # a column new since the first pool has no before
            assert figures["shares"] >= before[column]["shares"], column  # sharing the aspect at least as before
        assert figures["unjudged"] == 0, column  # every card shown was judged: nothing assumed
    mix, generic = now["your mix"], now["generic"]
    assert mix["precision"] >= generic["precision"] and mix["shares"] >= generic["shares"]
