"""User study, participant side: consent → tasks in this participant's order → thanks.

A view over study.sessions; it only ever holds a blinded TaskScreen (no sources, no scores).
"""
from __future__ import annotations

import streamlit as st

from app_views.corpus_choice import load_corpus
from app_views.engine_cache import cached_engine
from app_views.markdown import escape_markdown
from explore.errors import AspectNavError
from study.configured import STUDY_ENV, open_study_flow, setting
from study.sessions import AlreadyAnsweredError, StudyBusyError, StudySessionError
from study.store import DATABASE_ENV

CODE_KEY = "study_code"


@st.cache_resource(show_spinner="Preparing the study…")
def study_flow(study_ref: str | None, database_url: str | None):
    return open_study_flow(study_ref, database_url, corpus_loader=load_corpus, engine_loader=cached_engine)


def welcome(flow) -> None:
    st.title(flow.study.title)
    if flow.study.intro:
        st.markdown(flow.study.intro)
    if flow.study.consent:
        st.subheader("Consent")
        st.markdown(flow.study.consent)
    agreed = st.checkbox("I have read this and agree to take part.", key="study_consent")
    if st.button("Start", type="primary", disabled=not agreed, key="study_start"):
        try:
            st.session_state[CODE_KEY] = flow.start()
        except StudySessionError as exc:
            st.error(str(exc))
        else:
            st.session_state["study_new_code"] = True
            st.rerun()
    st.divider()
    st.subheader("Resume")
    typed = st.text_input("Your participant code", placeholder="XXXX-XXXX-XXXX", key="study_resume_code")
    if st.button("Resume", key="study_resume") and typed.strip():
        try:
            st.session_state[CODE_KEY] = flow.resume(typed)
            st.rerun()
        except StudySessionError as exc:
            st.error(str(exc))


def task_screen(flow, code: str, screen) -> None:
    st.progress((screen.number - 1) / screen.total, text=f"Task {screen.number} of {screen.total}")
    if st.session_state.pop("study_new_code", False):
        st.info(f"Your participant code is **{code}**. Note it down: it lets you resume later, on any device.")
    st.subheader(f"Goal: {screen.goal}")
    with st.container(border=True):
        st.caption("You have just read")
        st.markdown(f"**{escape_markdown(screen.seed.title)}**")
        st.write(escape_markdown(screen.seed.snippet))
    st.markdown(f"Which articles would you read next? **Pick your top {screen.rank_depth}**, best first.")
    # Options are the numbered titles themselves (unique), mapped back to article ids on submit.
    id_of = {f"{n}. {c.title}": c.id for n, c in enumerate(screen.candidates, start=1)}
    for label, candidate in zip(id_of, screen.candidates):
        with st.container(border=True):
            st.markdown(f"**{escape_markdown(label)}**")
            st.caption(escape_markdown(candidate.snippet))
    with st.form(key=f"study_form_{screen.task_id}"):
        ranking = [
            st.selectbox(f"Rank {rank}", list(id_of), index=None, placeholder="choose an article",
                         key=f"study_rank_{screen.task_id}_{rank}")
            for rank in range(1, screen.rank_depth + 1)
        ]
        submitted = st.form_submit_button("Save and continue", type="primary")
    if submitted:
        try:
            with st.spinner("Saving your answer…"):  # a busy database is tried again (study.write_retry)
                flow.submit(code, screen.task_id, [id_of.get(choice, "") for choice in ranking])
            st.rerun()
        except AlreadyAnsweredError as exc:
            st.info(str(exc))
            st.button("Next task", key="study_next")
        except StudySessionError as exc:
            st.error(str(exc))
    st.caption(f"Participant code: {code}")


def finished(flow) -> None:
    st.title(flow.study.title)
    st.success("All tasks are done — thank you for taking part! You can close this page.")


try:
    flow = study_flow(setting(STUDY_ENV, st.secrets), setting(DATABASE_ENV, st.secrets))
except AspectNavError as exc:
    st.title("User study")
    st.error(str(exc))
    st.stop()

code = st.session_state.get(CODE_KEY)
if code is None:
    welcome(flow)
else:
    try:
        screen = flow.next_task(code)
    except StudyBusyError as exc:  # the code is fine: keep it, so a reload carries on
        st.error(str(exc))
        st.caption(f"Participant code: {code}")
        st.stop()
    except StudySessionError as exc:
        st.session_state.pop(CODE_KEY, None)
        st.error(str(exc))
        st.stop()
    if screen is None:
        finished(flow)
    else:
        task_screen(flow, code, screen)
