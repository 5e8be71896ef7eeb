"""A box or lasso selection exported as CSV: ids and titles in order, unknown ids left out, formulas defused."""
import csv
import io

from explore.map_selection import selection_csv, selection_rows
from explore.spreadsheet_csv import spreadsheet_safe
from explore.corpus.model import Article
from tests.fixture_corpora import aspect_corpus, fixture_corpus


def test_rows_keep_the_selection_order_and_leave_unknown_ids_out():
    corpus = fixture_corpus()
    rows = selection_rows(corpus, ["p9", "nobody", "p7", "p9"], aspect="country")
    assert [(r["id"], r["title"]) for r in rows] == [("p9", "Person 9"), ("p7", "Person 7")]
    assert rows[0]["country"] == ", ".join(corpus["p9"].labels("country"))
    parsed = list(csv.DictReader(io.StringIO(selection_csv(rows))))
    assert parsed == rows
    assert selection_csv([]) == ""


def test_a_title_that_looks_like_a_formula_is_written_as_text():
    assert spreadsheet_safe("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")"
    assert spreadsheet_safe("-1") == "'-1" and spreadsheet_safe("Paris") == "Paris"
    corpus = aspect_corpus(articles=[Article("f1", "=1+1", "A formula."), Article("f2", "@SUM(A1)", "Another."),
                                     Article("f3", "Plain", "Not one.")])
    parsed = list(csv.DictReader(io.StringIO(selection_csv(selection_rows(corpus, ["f1", "f2", "f3"])))))
    assert [row["title"] for row in parsed] == ["'=1+1", "'@SUM(A1)", "Plain"]


def test_an_inferred_label_fills_the_aspect_column_and_says_it_is_inferred():
    corpus = aspect_corpus(articles=[Article("curie", "Marie Curie", "x", inferred={"topic": ("People",)}),
                                     Article("b", "B", "x", aspects={"topic": ("Arts",)}), Article("n", "N", "x")])
    rows = selection_rows(corpus, ["curie", "b", "n"], aspect="topic")
    assert [(r["topic"], r["topic inferred"]) for r in rows] == [("People", "yes"), ("Arts", ""), ("", "")]
    assert list(csv.DictReader(io.StringIO(selection_csv(rows))))[0]["topic inferred"] == "yes"
