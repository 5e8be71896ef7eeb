"""Evaluation: the training module's reports, per aspect side by side, as tables and bar charts."""
from __future__ import annotations

import streamlit as st

from app_views.corpus_choice import chosen_corpus
from app_views.figures import metric_bar_figure
from app_views.markdown import escape_markdown
from training.report import METRICS, POOL_TITLES, evaluate_command, find_reports

corpus = chosen_corpus()
st.title("Evaluation")
st.caption("Aspect retrieval: for each test article with a label of the aspect, are its nearest neighbours in a space "
           "articles sharing a label? Seeds are never candidates.")

reports = find_reports(corpus.name)
if not reports:
    st.info(f"No evaluation report yet for corpus {corpus.name!r} — run:")
    st.code(evaluate_command(corpus.name, corpus.aspect_names), language="bash")
    st.stop()

names = {report.path: f"{report.name} ({report.path.parent})" for report in reports}
chosen = st.selectbox("Report", list(names), format_func=names.get, key="eval_report")
report = next(r for r in reports if r.path == chosen)
split = report.split
st.caption(f"Split seed {split.get('seed')}: {split.get('train')} train / {split.get('test')} test articles; "
           f"k = {report.k}.")
controls = st.columns(2)
pool = controls[0].radio("Pool", list(POOL_TITLES), format_func=POOL_TITLES.get, key="eval_pool")
metric = controls[1].radio("Chart metric", list(METRICS), format_func=lambda m: f"{METRICS[m]}@{report.k}",
                           horizontal=True, index=2, key="eval_metric")

for aspect, place in zip(report.aspects, st.columns(max(1, len(report.aspects)))):
    with place:
        st.subheader(escape_markdown(aspect))
        rows = report.metric_rows(aspect, pool)
        st.dataframe(rows, hide_index=True, column_config={key: st.column_config.NumberColumn(format="%.3f")
                                                           for key in rows[0] if key != "space"})
        column = f"{METRICS[metric]}@{report.k}"
        st.plotly_chart(metric_bar_figure(rows, column, f"{aspect}: {column}"), key=f"eval-{aspect}")

st.subheader("AgTS and overlap with the generic space")
st.dataframe(report.secondary_rows(), hide_index=True)
for space, note in report.notes.items():
    st.caption(escape_markdown(f"{space}: {note}"))
