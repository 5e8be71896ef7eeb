"""User study, researcher side: design and checks, exclusions, mean rank per source (with and without the
declared exclusions), tests with Kendall's W, per-task table and exports.

Locked behind the maintainers' password (app_views/maintainer_login.py: ASPECTNAV_STUDY_PASSWORD, or
`aspectnav_study_password` in Streamlit secrets).
"""
from __future__ import annotations

import streamlit as st

from app_views.figures import mean_rank_figure
from app_views.maintainer_login import maintainer_login, maintainer_password
from explore.errors import AspectNavError
from study.analysis_config import AnalysisConfig
from study.codebook import codebook_json
from study.configured import PASSWORD_ENV, STUDY_ENV, configured_store, configured_study, setting
from study.report import (
    answers_csv,
    departure_lines,
    load_questionnaire,
    questionnaire_csv,
    report_json,
    study_report,
    summary_csv,
)
from study.result_tables import (
    check_table,
    choice_table,
    exclusion_table,
    free_text_table,
    friedman_table,
    likert_table,
    order_table,
    pairwise_table,
    per_task_table,
)
from study.store import DATABASE_ENV


@st.cache_resource(show_spinner=False)
def study_and_store(study_ref: str | None, database_url: str | None):
    """Opened once per configuration (the arguments are the cache key), not on every rerun: opening
    checks the schema in a write transaction, which would compete with participants' answers."""
    study = configured_study(st.secrets)
    return study, configured_store(study.name, st.secrets)


st.title("Study results")
if not maintainer_password():
    st.warning(f"Results are locked: set the environment variable {PASSWORD_ENV} (or "
               f"`{PASSWORD_ENV.lower()}` in .streamlit/secrets.toml) and restart the app.")
    st.stop()
if not maintainer_login("study_results"):
    st.stop()

unranked = st.radio("Unranked candidates count as", ["last", "mid"], horizontal=True, key="study_unranked",
                    format_func={"last": "rank 12 (as in the research)", "mid": "the fair mid-rank 9"}.get)
try:
    study, store = study_and_store(setting(STUDY_ENV, st.secrets), setting(DATABASE_ENV, st.secrets))
    report, stored_study, answers = study_report(store, study.name, AnalysisConfig(unranked=unranked))
except AspectNavError as exc:
    st.error(str(exc))
    st.stop()

st.caption(f"Study **{report.study}**")
started, finished_count, answer_count = st.columns(3)
started.metric("Participants started", report.participants_started)
finished_count.metric("Finished", report.participants_finished)
answer_count.metric("Answers", report.answers)
for line in departure_lines(report):  # returned, timed out, withdrawn: who is not in the data
    st.caption(line)
if not report.answers:
    st.info("No answers yet.")
    st.stop()

st.subheader("Design, checks and exclusions")
if report.orders:
    counts = [order.participants for order in report.orders]
    done = [order.completed for order in report.orders]
    st.markdown(f"Task order: **balanced Latin square**, {len(counts)} orders; completed per order "
                f"{min(done)}–{max(done)} (started {min(counts)}–{max(counts)}).")
    with st.expander("Participants per order"):
        st.dataframe(order_table(report.orders), hide_index=True)
else:
    st.markdown(f"Task order: **{report.design}** per participant.")
if report.checks:
    st.dataframe(check_table(report.checks), hide_index=True)
if report.exclusions:
    st.markdown(f"Exclusion rules declared in the study file: **{report.participants_excluded} of "
                f"{report.participants_answering}** answering participants excluded.")
    st.dataframe(exclusion_table(report.exclusions), hide_index=True)
else:
    st.caption("No exclusion rules declared.")

result = report
if report.unexcluded is not None:
    applied = st.toggle("Apply the declared exclusions", value=True, key="study_apply_exclusions")
    result = report if applied else report.unexcluded
    st.caption(f"Results below: {'with' if applied else 'without'} exclusions "
               f"({report.participants_answering - report.participants_excluded if applied else report.unexcluded.participants}"
               " participants).")

if not result.summaries:
    st.info("No participant is left once the declared exclusions are applied; switch them off above to see "
            "everyone's answers.")
for task_type in dict.fromkeys(row.task_type for row in result.summaries):
    st.plotly_chart(mean_rank_figure(result, task_type), key=f"study_chart_{task_type}")

st.subheader("Friedman test and Kendall's W")
st.caption("W is the effect size: how strongly participants agree on the order of the sources (0 none, 1 full).")
st.dataframe(friedman_table(result.friedman), hide_index=True)
st.subheader("Pairwise Wilcoxon signed-rank (Holm-corrected)")
st.dataframe(pairwise_table(result.pairwise), hide_index=True)
st.subheader("Per task")
st.dataframe(per_task_table(result.per_task), hide_index=True)

if report.questionnaire is not None:
    st.subheader("Questionnaire")
    st.caption("Declared exclusions applied. Per-source items: each participant's mean over the tasks; the median "
               "with its interquartile range and a 95% bootstrap interval.")
    if report.questionnaire.likert:
        st.dataframe(likert_table(report.questionnaire.likert), hide_index=True)
    if report.questionnaire.friedman:
        st.markdown("**Per-source items across sources** (Friedman; pairwise Wilcoxon, Holm-corrected)")
        st.dataframe(friedman_table(report.questionnaire.friedman), hide_index=True,
                     column_config={"Task type": "Item"})
        st.dataframe(pairwise_table(report.questionnaire.pairwise), hide_index=True,
                     column_config={"Task type": "Item"})
    if report.questionnaire.choices:
        st.dataframe(choice_table(report.questionnaire.choices), hide_index=True)
    if report.questionnaire.texts:
        st.markdown("**Free-text answers**")  # a dataframe cell shows text as text: nothing in it is rendered
        st.dataframe(free_text_table(report.questionnaire.texts), hide_index=True)

st.subheader("Export")
csv_col, answers_col, json_col, codebook_col = st.columns(4)
csv_col.download_button("Summary CSV", summary_csv(report), f"{report.study}_summary.csv", "text/csv")
answers_col.download_button("Answers CSV", answers_csv(stored_study, answers), f"{report.study}_answers.csv",
                            "text/csv")
json_col.download_button("Full report JSON", report_json(report, stored_study, answers), f"{report.study}_report.json",
                         "application/json")
if stored_study.questionnaire.items:
    st.download_button("Questionnaire CSV", questionnaire_csv(stored_study, load_questionnaire(store, stored_study.name)),
                       f"{report.study}_questionnaire.csv", "text/csv")
codebook_col.download_button("Codebook JSON", codebook_json(stored_study), f"{report.study}_codebook.json",
                             "application/json", help="Every exported column: name, type, meaning and levels")
