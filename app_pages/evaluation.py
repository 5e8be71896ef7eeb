"""Evaluation: the training module's reports, one aspect per tab, every metric named and explained."""
from __future__ import annotations

import html
from pathlib import Path

import streamlit as st

from app_views.columns import missing_spaces_hint
from app_views.corpus_choice import chosen_corpus
from app_views.engine_cache import forget_engines, load_engine
from app_views.evaluation_table import TABLE_METRICS, metric_table, row_heading
from app_views.html_table import Cell, html_table
from app_views.html_text import Code, Emphasis, caption, heading
from app_views.bar_chart import judged_bar_chart, metric_bar_chart
from app_views.judged_table import judged_chart_rows, judged_rows, versus_rows, versus_summary
from app_views.label_precision import label_precision_html
from app_views.maintainer_login import maintainer_login, maintainer_password
from app_views.markdown import escape_markdown
from explore.errors import AspectNavError
from training.judged_report import find_judged_reports
from training.on_demand import aspects_without_space, train_aspect_space
from explore.commands import evaluate_command
from training.report import (DESCRIPTIVE, METRICS, POOL_TITLES, column_relevance, column_title, find_reports,
                             metric_header, metric_meaning, metric_title)

MAINTAINERS = "eval_maintainers"  # the maintainers' expander, open or not
MEANINGS = "eval_meanings"  # "What the numbers mean", open or not
ROW_NOTES = "eval_row_notes"  # "What each row is", open or not
TAB = "eval_tab"  # the aspect tab open

corpus = chosen_corpus()
st.title("Evaluation")


# What the retrieval section measures: in the element before it (one element fewer for the browser on every open)
RETRIEVAL = caption("Do a space's nearest neighbours share the seed's labels? For each test article labelled in an "
                    "aspect, its neighbours in each space are checked: a neighbour is ", Emphasis("relevant"),
                    " when it shares one of the seed's labels. The seed itself is never a candidate.")


def worth_reading_section() -> bool:
    """Explore's columns on judged seeds: worth reading beside shares the aspect (training/judged_report.py). Three
    elements (its text, the choice, its table and chart, with the next section's heading and caption) where it was
    eight: each one costs the browser on every open. False when the corpus has no judged report."""
    judged = find_judged_reports(corpus.name)
    if not judged:
        return False
    st.html(heading("Worth reading: Explore's columns on judged seeds") + caption(
        "Is a card worth reading next? For each judged seed, the top 5 of every column Explore draws were graded by "
        "judges who did not know the column: 2 = a reader of the seed would read it next, 1 = related but not what a "
        "reader wants next, 0 = unrelated. ", Emphasis("Worth reading"), " is nDCG@5 (graded) and P@5 (grade 1 or 2) "
        "over the judged cards; a card never judged is counted, not guessed. ", Emphasis("Shares the aspect"),
        " is the share of the top 5 that share a label of the column's aspect with the seed (generic, links and your "
        "mix: any aspect the seed has). A column is worth showing only where both are high: the ",
        Emphasis("column score"), " is their harmonic mean."))
    report = judged[0]
    block = st.selectbox("Columns", list(report.blocks), key="judged_block", width=360,
                         help="What Explore draws now, or the columns as they were when the seeds were judged.")
    files = [part for path in report.judgements for part in (", ", Code(Path(path).name))][1:]
    versus = versus_rows(report, block)
    against = (heading("Against Wikipedia's Read more") + caption(
        "Wikipedia's own Read more (a BM25 more-like-this text search, more linked-to articles first) is what readers "
        "get today. Each column minus Read more, seed by seed on the seeds the column is drawn for, sharing counted by "
        "the column's own aspect on both sides; in brackets the 95% interval of the difference: ", Emphasis("above"),
        " or ", Emphasis("below"), " when it leaves out 0, ", Emphasis("within the spread"), " when it holds it. ",
        versus_summary(report, block)) + html_table(versus, "Explore's columns against Wikipedia's Read more")
               ) if versus else ""
    st.html(html_table(judged_rows(report, block), "Explore's columns on judged seeds")
            + caption(f"{report.pairs:,} judged pairs; mean ± sd over the seeds each column is drawn for. Files: ",
                      *files, ".")
            + judged_bar_chart(judged_chart_rows(report, block), "Worth reading and shares the aspect, per column "
                               "(mean ± sd over seeds)").html()
            + against
            + heading("Sharing the seed's labels: each space as aspect retrieval") + RETRIEVAL)
    return True


if not worth_reading_section():
    st.html(RETRIEVAL)


def opened(label: str, key: str):
    """An expander whose body is drawn only once the reader opens it (a rerun), or None while it is closed: a
    closed expander's body still costs the browser its elements on every open of the page (the maintainers' code block
    alone 0.4 s of CPU)."""
    expander = st.expander(label, key=key, on_change="rerun")
    return None if expander.open is False else expander


def maintainer_notes() -> None:
    """Training and commands for whoever maintains this corpus's spaces and reports, behind the maintainers'
    password (training writes to the data home that every reader's Explore and Maps read). Without a configured
    password there is nothing here: readers see no form and no command."""
    if not maintainer_password():
        return
    notes = opened("For maintainers: train the missing spaces and re-run the evaluation", MAINTAINERS)
    if notes is None:
        return
    with notes:
        if not maintainer_login(MAINTAINERS):
            return
        engine, problem = load_engine(corpus)
        if problem:
            st.warning(escape_markdown(problem))
        st.markdown(missing_spaces_hint(corpus, engine, maintainer=True) or "Every aspect of this corpus has a space.")
        train_space_form(engine)
        st.markdown("Run the evaluation (writes a report this page lists):")
        st.code(evaluate_command(corpus.name, corpus.aspect_names), language="bash")


def train_space_form(engine) -> None:
    """Train a space for an aspect without one, here and now (maintainers only: maintainer_notes draws it once
    unlocked); Explore shows its column on the next page run."""
    missing = aspects_without_space(corpus, engine.spaces.values() if engine else ())
    if not missing:
        return
    with st.form("train-space", border=True):
        st.markdown("**Train a space** (a projection of the generic space, trained on this corpus's labels of the "
                    "aspect: seconds to a minute on a laptop CPU).")
        aspect = st.selectbox("Aspect", missing, key="train_aspect")
        head = st.radio("Projection", ["linear", "mlp"], horizontal=True, key="train_head",
                        captions=["a d×d matrix: the default", "one hidden layer: for aspects with many articles"])
        submitted = st.form_submit_button("Train the space", type="primary")
    if not submitted:
        return
    bar = st.progress(0.0, text="Starting…")
    try:
        trained = train_aspect_space(corpus, aspect, head, taken=engine.spaces if engine else (),
                                     on_step=lambda share, what: bar.progress(min(max(share, 0.0), 1.0), text=what))
    except AspectNavError as error:
        bar.empty()
        st.error(escape_markdown(str(error)))
        return
    forget_engines()
    st.success(escape_markdown(trained.summary()) + " Explore shows it as a column for articles labelled with "
               f"{escape_markdown(repr(trained.aspect))}.")
    st.page_link("app_pages/explore.py", label="Open Explore", icon=":material/explore:")


reports = find_reports(corpus.name)
if not reports:
    st.info(f"No evaluation report yet for corpus {escape_markdown(repr(corpus.name))}.")
    maintainer_notes()
    st.stop()

titles = {str(report.path): report.title for report in reports}
chosen = st.selectbox("Report", list(titles), format_func=titles.get,
                      key="eval_report", help="Reports shipped with the app, then the ones your own runs wrote.")
report = next(r for r in reports if str(r.path) == chosen)
k, n = report.k, report.overlap_k
split = report.split
seeds = ", ".join(map(str, report.seeds))
over = f"mean ± sd over split seeds {seeds}" if len(report.seeds) > 1 else f"split seed {seeds}"
st.html(caption(f"{len(report.spaces)} rows, k = {k}; {over}: {split.get('train')} train / {split.get('test')} test "
                "articles. File: ", Code(report.path.name), "."))
# Choices as selectboxes, not radios: the page's selectboxes load the same code as the sidebar's picker, where
# radios were one more component for the browser to load and lay out on every open. A row of them is one block (as
# columns, three).
with st.container(horizontal=True, gap="medium"):
    pool = st.selectbox("Candidates (pool)", list(POOL_TITLES), format_func=POOL_TITLES.get, key="eval_pool",
                        width=440)
    metric = st.selectbox("Chart", list(METRICS), format_func=lambda m: metric_header(m, k, n), index=2,
                          key="eval_metric", width=440)


def metric_meanings() -> None:
    """Every metric in plain words, what bold means, and what a row is."""
    meanings = opened("What the numbers mean", MEANINGS)
    if meanings is None:
        return
    with meanings:
        st.markdown("\n".join(f"- **{escape_markdown(metric_title(m, k, n))}**: "
                              f"{escape_markdown(metric_meaning(m, k, n))}" for m in TABLE_METRICS))
        described = " and ".join(metric_header(m, k, n).split(" (")[0] for m in DESCRIPTIVE)
        st.markdown(f"Higher is better for P, R, MRR, MAP, nDCG and AgTS; the best value of each of those columns is "
                    f"in **bold** (in a report over several seeds, with every value within the spread of the best: a "
                    f"smaller difference is not one the seeds support). {described} describe a list (how close it "
                    f"stays to generic, how much of it the seed links to), so none of their values is bold. "
                    f"AgTS is measured on test articles, {described} on all articles, whatever the pool. Rows are "
                    f"named as Explore names its columns; a row with another name is an alternative compared here, "
                    f"not a column of Explore (*What each row is* says what it ranks by).")


metric_meanings()

# Lazy tabs: only the open tab's text, table and chart are drawn (a rerun draws another when it is opened). A hidden
# tab's table still costs the browser its cells: drawn for all five tabs, they were most of the page's browser CPU.
# The tables are plain HTML (app_views/html_table.py): as st.table, every cell was Markdown for the browser to parse.
tabs = st.tabs([escape_markdown(column_title(c)) for c in report.aspects], key=TAB, on_change="rerun")
for column, tab in zip(report.aspects, tabs):
    if tab.open is False:
        continue
    with tab:
        counts = report.seed_counts(column, pool)
        seeds = ""
        if counts is not None:
            seeds = f" {counts[0]:,} test articles are scored as seeds"
            seeds += (f"; {counts[1]:,} more have no relevant article among the candidates and are left out."
                      if counts[1] else ".")
        table = metric_table(report, column, pool)
        rows = report.metric_rows(column, pool)
        spread = [report.sd(row["space"], column, metric, pool) for row in rows]
        rows = [row | {"space": row_heading(report, row["space"])} for row in rows]
        title = f"{column_title(column)}: {metric_title(metric, k, n)}" + (" (mean ± sd over seeds)" if any(
            sd is not None for sd in spread) else "")
        # one element: the tab's sentence, table, notes and chart
        st.html(f'<p>{html.escape(f"A neighbour is relevant when it {column_relevance(column)}.{seeds}")}</p>'
                + html_table(table.rows, f"{column_title(column)}: every metric of each row")
                + "".join(caption(line) for line in table.left_out)
                + metric_bar_chart(rows, f"{METRICS[metric]}@{k}", title, spread).html())

labels_judged = label_precision_html(corpus.name)
if labels_judged:
    st.html(labels_judged)

row_notes = opened("What each row is (its query)", ROW_NOTES) if report.notes else None
if row_notes is not None:
    with row_notes:
        st.html(html_table([{"row": row_heading(report, space), "query": Cell(note, code=True)}
                            for space, note in report.notes.items()], "What each row is"))
maintainer_notes()
