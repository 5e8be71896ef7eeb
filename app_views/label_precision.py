"""The Evaluation page's table of how right the labels are, per aspect and source (explore/corpus/label_judgements.py),
as one HTML element."""
from __future__ import annotations

from app_views.html_table import html_table
from app_views.html_text import Code, caption, heading
from explore.corpus.label_judgements import JUDGEMENTS_PATH, MIN_PRECISION, Precision, label_precision

SOURCE_WORDS = {"description": "its short description", "lead": "its lead's first sentence",
                "table": "a public table (Pantheon 1.0, the vital lists)", "inferred": "inferred from nearby articles"}


def precision_rows(table: list[Precision]) -> list[dict]:
    rows = []
    for p in table:
        if not p.judged:
            continue
        low, high = p.wilson()
        rows.append({"aspect": p.aspect, "source": SOURCE_WORDS.get(p.source, p.source), "judged": f"{p.judged}",
                     "precision": f"{p.value:.1%}", "95% interval": f"{low:.1%}–{high:.1%}",
                     "shipped": "yes" if p.shipped else f"no (under {MIN_PRECISION:.0%})"})
    return rows


def label_precision_html(corpus_name: str) -> str:
    """The section for the vital corpus, whose labels were judged; "" for any other corpus or before judging."""
    table = label_precision() if corpus_name == "vital" else []
    rows = precision_rows(table)
    if not rows:
        return ""
    return (heading("How right the labels are: each aspect and source, judged blind")
            + caption("Up to 200 labelled articles per aspect and source, drawn at random, were judged right or wrong "
                      "from the article alone by reviewers who did not write the rules and were not told where a "
                      "label came from. A source under 90% is not shipped. Verdicts: ", Code(JUDGEMENTS_PATH.name), ".")
            + html_table(rows, "Label precision per aspect and source"))
