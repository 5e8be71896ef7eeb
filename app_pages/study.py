"""User study, participant side: consent → tasks in this participant's order → thanks (or, on a
crowdsourcing platform, back to it with the completion or screen-out code).

A view over study.sessions; it only ever holds a blinded TaskScreen (no sources, no scores). Ranking is
direct: click the articles in the order you prefer them (each once; undo, remove, clear), then save. A
reload keeps the participant's place through a cookie (app_views.participant_cookie), never the URL: the
platform's ids (PROLIFIC_PID …) are read from the URL, stored with the participant, then taken out of it.
"""
from __future__ import annotations

import logging

import streamlit as st

from app_views.corpus_choice import load_corpus
from app_views.engine_cache import cached_engine
from app_views.markdown import escape_markdown
from app_views.one_line_title import one_line_title
from app_views.page_script import run_script
from app_views.participant_cookie import forget, remember, remembered_code
from app_views.questionnaire_form import item_widget, page_answers, saved_value, widget_key
from app_views.ranking_draft import RankingDraft
from explore.errors import AspectNavError
from study.configured import STUDY_ENV, open_study_flow, setting
from study.outcome import Outcome, left_the_study
from study.platform import PlatformError
from study.sessions import AlreadyAnsweredError, StudyBusyError, StudySessionError
from study.store import DATABASE_ENV
from study.write_retry import StoreBusyError

log = logging.getLogger("aspectnav.study_page")
DATABASE_AWAY = ("The study cannot reach its database right now. Nothing is lost: your answers so far are saved. "
                 "Please wait a minute, then reload this page to carry on where you were.")
CODE_KEY = "study_code"
DRAFT_KEY = "study_draft"
PLATFORM_IDS_KEY = "study_platform_ids"
ON_PLATFORM_KEY = "study_on_platform"  # whether the participant of this session came from the platform
REDIRECT_AFTER_MS = 3000  # long enough to read the code, short enough that nobody has to click
# The "Your top N" panel stays in view while the participant scrolls through the candidates.
STICKY_RANKING_CSS = """<style>
[data-testid="stLayoutWrapper"]:has(> .st-key-study_ranking) { position: sticky; top: 4rem; z-index: 2; }
</style>"""


@st.cache_resource(show_spinner="Preparing the study…")
def study_flow(study_ref: str | None, database_url: str | None):
    return open_study_flow(study_ref, database_url, corpus_loader=load_corpus, engine_loader=cached_engine)


def welcome(flow) -> None:
    st.title(flow.study.title)
    platform, ids = flow.study.platform, st.session_state.get(PLATFORM_IDS_KEY)
    if platform.requires_id and not ids:  # a stop page: an unlinked participant's answers could never be paid for
        st.warning(platform.missing_id_message())
        return
    if flow.study.intro:
        st.markdown(flow.study.intro)
    st.subheader("Consent")
    if flow.study.consent:
        st.markdown(flow.study.consent)
    # Who keeps the participant's place is the app's to say, not the study text's: a platform keeps it by id.
    st.markdown(f"Your {platform.kind.id_name} is stored with your answers, so that {platform.kind.display_name} "
                f"can match them to your submission; to carry on later, open the study from "
                f"{platform.kind.display_name} again." if ids else
                "You will get a participant code: note it down, and with it you can resume later, on any device.")
    agreed = st.checkbox("I have read this and agree to take part.", key="study_consent")
    if st.button("Start", type="primary", disabled=not agreed, key="study_start"):
        try:
            st.session_state[CODE_KEY] = flow.start(st.session_state.get(PLATFORM_IDS_KEY))
        except StudySessionError as exc:
            st.error(str(exc))
        else:
            st.session_state["study_new_code"] = True
            st.rerun()
    if st.session_state.get(PLATFORM_IDS_KEY):
        return  # the platform brings its participant back by id: no code to type
    st.divider()
    st.subheader("Resume")
    typed = st.text_input("Your participant code", placeholder="XXXX-XXXX-XXXX", key="study_resume_code")
    if st.button("Resume", key="study_resume") and typed.strip():
        try:
            st.session_state[CODE_KEY] = flow.resume(typed)
            st.rerun()
        except StoreBusyError:  # the page's title is drawn already: the words alone
            st.warning(DATABASE_AWAY)
        except StudySessionError as exc:
            st.error(str(exc))


def draft_for(screen) -> RankingDraft:
    """This task's ranking so far: in this session, else as last saved (a reload, another device)."""
    draft = st.session_state.get(DRAFT_KEY)
    if not isinstance(draft, RankingDraft) or draft.task_id != screen.task_id:
        draft = RankingDraft(screen.task_id, screen.rank_depth, tuple(c.id for c in screen.candidates),
                             list(screen.draft))
        st.session_state[DRAFT_KEY] = draft
    return draft


def change(flow, code: str, draft: RankingDraft, edit, *args) -> None:
    """Apply one click to the draft and save the picks at once, so a reload loses none of them."""
    before = list(draft.picks)
    edit(*args)
    if draft.picks != before:
        try:
            flow.save_draft(code, draft.task_id, list(draft.picks))
        except StudySessionError:
            pass  # an answered task or a stale page: the save button reports it


def toggle(draft: RankingDraft, article_id: str) -> None:
    if draft.rank_of(article_id):
        draft.remove(article_id)
    else:
        draft.pick(article_id)


@st.fragment
def ranking_area(flow, code: str, screen) -> None:
    """The candidates and the "Your top N" panel: a pick reruns this part alone, which keeps clicks quick
    when many participants share one server; saving reruns the whole page for the next task."""
    draft = draft_for(screen)
    title_of = {c.id: c.title for c in screen.candidates}
    choices, ranking = st.columns([3, 2], gap="large")
    with choices:
        st.markdown(f"Which articles would you read next? **Click your top {screen.rank_depth} in order**, "
                    "best first; click a picked one again to take it back.")
        grid = st.columns(2)
        for number, candidate in enumerate(screen.candidates):
            rank = draft.rank_of(candidate.id)
            with grid[number % 2].container(border=True, key=f"study_card_{number}"):
                st.markdown(f"**{escape_markdown(candidate.title)}**\n\n:small[:gray[{escape_markdown(candidate.snippet)}]]")
                label = (f"Ranked #{rank}" if rank else
                         f"Pick as #{draft.next_rank}" if draft.next_rank else "Your top list is full")
                st.button(label, key=f"study_pick_{screen.task_id}_{candidate.id}", on_click=change,
                          args=(flow, code, draft, toggle, draft, candidate.id), disabled=not rank and not draft.can_pick(candidate.id),
                          type="primary" if rank else "secondary", icon=":material/check:" if rank else None,
                          help="Click again to take it back" if rank else None, width="stretch")
    st.html(STICKY_RANKING_CSS)
    with ranking, st.container(border=True, key="study_ranking"):
        slots = [f"{position}. **{escape_markdown(one_line_title(title_of[draft.picks[position - 1]]))}**"
                 if position <= len(draft.picks) else f"{position}. :gray[— click an article]"
                 for position in range(1, screen.rank_depth + 1)]
        st.markdown(f"**Your top {screen.rank_depth}**\n\n" + "\n".join(slots))
        undo, clear = st.columns(2)
        undo.button("Undo", key="study_undo", on_click=change, args=(flow, code, draft, draft.undo),
                    disabled=not draft.picks,
                    icon=":material/undo:", width="stretch")
        clear.button("Clear", key="study_clear", on_click=change, args=(flow, code, draft, draft.clear),
                     disabled=not draft.picks,
                     width="stretch")
        left = screen.rank_depth - len(draft.picks)
        save = st.button("Save and continue", key="study_save", type="primary", disabled=not draft.complete,
                         width="stretch",
                         help=None if draft.complete else f"Pick {left} more article{'s' * (left != 1)} first.")
        if not draft.complete:
            st.caption(f"{left} more to pick.")
    if save:
        try:
            with st.spinner("Saving your answer…"):  # a busy database is tried again (study.write_retry)
                flow.submit(code, screen.task_id, list(draft.picks))
            st.session_state.pop(DRAFT_KEY, None)
            st.rerun()  # the whole page: the next task
        except AlreadyAnsweredError as exc:  # another device saved this task first: show the next one
            st.session_state.pop(DRAFT_KEY, None)
            st.session_state["study_notice"] = str(exc)
            st.rerun()
        except StudySessionError as exc:
            st.error(str(exc))


def on_platform(flow, code: str) -> bool:
    """Whether this participant came from the platform, so it (not a code) keeps their place: read once per
    session, from the stored participant when a reload (a new session, the ids gone from the URL) resumed them."""
    if ON_PLATFORM_KEY not in st.session_state:
        st.session_state[ON_PLATFORM_KEY] = bool(st.session_state.get(PLATFORM_IDS_KEY)
                                                 or flow.status(code).platform_ids)
    return st.session_state[ON_PLATFORM_KEY]


def task_screen(flow, code: str, screen) -> None:
    st.progress((screen.number - 1) / screen.total, text=f"Task {screen.number} of {screen.total}")
    platform_participant = on_platform(flow, code)
    if st.session_state.pop("study_new_code", False) and not platform_participant:
        st.info(f"Your participant code is **{code}**. Note it down: it lets you resume later, on any device.")
    if notice := st.session_state.pop("study_notice", None):
        st.info(notice)
    if st.session_state.pop("study_welcome_back", False):
        st.info(f"Welcome back: you are on task {screen.number} of {screen.total}; your earlier answers are saved.")
    st.subheader(f"Goal: {escape_markdown(screen.goal)}")
    with st.container(border=True):
        st.caption("You have just read")
        st.markdown(f"**{escape_markdown(screen.seed.title)}**")
        st.write(escape_markdown(screen.seed.snippet))
    ranking_area(flow, code, screen)
    if platform_participant:
        return  # one platform id is one participant: no code to keep, no fresh start to offer
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(f"Participant code: {code} · Not you?")
        st.button("Start over as a new participant", key="study_not_me", on_click=leave, args=(flow,), type="tertiary")


def save_page_draft(flow, code: str, page) -> None:
    """Keep the answers given so far on this page, so a reload starts from them."""
    try:
        flow.save_questionnaire_draft(code, page.key, page_answers(page))
    except StudySessionError:
        pass  # a page already submitted elsewhere: Continue reports it


def questionnaire_screen(flow, code: str, page) -> None:
    """Questions after a task, about each list of its suggestions (lettered, never named), or once at the end."""
    if page.per_source:
        st.subheader("A few questions about the suggestions you just ranked")
        goal = next((task.goal for task in flow.study.tasks if task.id == page.key), None)
        if goal:  # "These articles fit my goal" is read against it
            st.markdown(f"Your goal was: **{escape_markdown(goal)}**")
        st.markdown("Here are the suggestions again, grouped into lists. Please answer the questions for each list.")
        for shown in page.lists:
            with st.container(border=True, key=f"study_q_list_{shown.letter}"):
                st.markdown(f"**List {shown.letter}**: " + " · ".join(escape_markdown(one_line_title(t))
                                                                     for t in shown.titles))
                for item in page.items:
                    item_widget(item, widget_key(page, shown.letter, item), saved_value(page, shown.letter, item),
                                on_change=save_page_draft, args=(flow, code, page))
    else:
        st.subheader("Last questions")
        st.markdown("Thinking of all the suggestions you saw in this study:")
        with st.container(border=True, key="study_q_once"):
            for item in page.items:
                item_widget(item, widget_key(page, "", item), saved_value(page, "", item),
                            on_change=save_page_draft, args=(flow, code, page))
    if st.button("Continue", key=f"study_q_submit_{page.key or 'once'}", type="primary"):
        try:
            with st.spinner("Saving your answers…"):
                flow.submit_questionnaire(code, page.key, page_answers(page))
            st.rerun()
        except AlreadyAnsweredError:
            st.rerun()
        except StudySessionError as exc:
            st.error(str(exc))
    if not on_platform(flow, code):
        st.caption(f"Participant code: {code}")


def leave(flow) -> None:
    """Someone else's session on this browser: forget the code here (their answers stay saved)."""
    for key in (CODE_KEY, DRAFT_KEY, "study_consent", PLATFORM_IDS_KEY, ON_PLATFORM_KEY):
        st.session_state.pop(key, None)
    st.session_state["study_forget"] = True


def finished(flow, code: str) -> None:
    """The end: thanks, or the platform's completion (or screen-out) code and a redirect to it."""
    forget(flow.study.name)  # the next person on this browser starts afresh
    st.title(flow.study.title)
    status = flow.status(code)
    platform = flow.study.platform
    if left_the_study(status.outcome):  # marked returned or timed out: no code to hand back, nothing to answer
        st.info(f"This session was closed (your submission was {str(status.outcome).replace('_', ' ')}). "
                "Thank you for your time; you can close this page.")
        return
    screened_out = status.outcome is Outcome.SCREENED_OUT
    if screened_out:
        st.warning("Thank you for your time. One of the tasks asked for something specific and your answer did "
                   "not follow it, so the study ends here for you.")
    else:
        st.success("All tasks are done — thank you for taking part!")
    target = platform.return_url(screened_out, status.platform_ids)
    if target is None:
        st.markdown("You can close this page.")
        return
    where = platform.kind.display_name
    st.markdown(f"Your {'screen-out' if screened_out else 'completion'} code is **{platform.code(screened_out)}**. "
                f"You are being sent back to {where}; if nothing happens, use the button.")
    st.link_button(f"Back to {where}", target, type="primary")
    run_script("setTimeout(() => window.location.assign(data.target), data.after_ms);", target=target,
               after_ms=REDIRECT_AFTER_MS)


def platform_arrival(flow) -> None:
    """Keep the platform's ids of this session; a participant the platform sends again resumes."""
    try:
        ids = flow.study.platform.participant_ids(st.query_params.to_dict())
    except PlatformError as exc:
        st.title(flow.study.title)
        st.error(str(exc))
        st.stop()
    if ids:
        st.session_state[PLATFORM_IDS_KEY] = ids
        if st.session_state.get(CODE_KEY) is None and (known := flow.returning(ids)):
            st.session_state[CODE_KEY] = known
            st.session_state["study_welcome_back"] = True


def strip_platform_ids(flow) -> None:
    """Once the ids are stored with the participant, take them out of the address bar: a copied link must not
    carry someone's platform id (the cookie carries the place from now on)."""
    for name in flow.study.platform.kind.id_parameters:
        if name in st.query_params:
            del st.query_params[name]


try:
    flow = study_flow(setting(STUDY_ENV, st.secrets), setting(DATABASE_ENV, st.secrets))
except AspectNavError as exc:
    st.title("User study")
    st.error(str(exc))
    st.stop()

def participant_page(flow) -> None:
    """Whatever this participant is at: consent, a task, a questionnaire page, the end."""
    platform_arrival(flow)
    if st.session_state.pop("study_forget", False):
        forget(flow.study.name)
        st.session_state["study_ignore_cookie"] = True  # the cookie still travels with this session's requests
    code = st.session_state.get(CODE_KEY)
    if code is None and not st.session_state.get("study_ignore_cookie") and (kept := remembered_code(flow.study.name)):
        try:  # a reload: carry on where this browser left off
            code = st.session_state[CODE_KEY] = flow.resume(kept)
            st.session_state["study_welcome_back"] = True
        except StudyBusyError:
            raise  # the database, not the code: keep the cookie for the reload that follows
        except StudySessionError:
            forget(flow.study.name)
    if code is None:
        welcome(flow)
    else:
        try:
            page = flow.next_questionnaire(code)
            screen = None if page else flow.next_task(code)
        except StudyBusyError as exc:  # the code is fine: keep it, so a reload carries on
            st.error(str(exc))
            st.caption(f"Participant code: {code}")
            st.stop()
        except StudySessionError as exc:
            st.session_state.pop(CODE_KEY, None)
            st.error(str(exc))
            st.stop()
        strip_platform_ids(flow)
        if page is not None:
            remember(flow.study.name, code)
            questionnaire_screen(flow, code, page)
        elif screen is None:
            finished(flow, code)
        else:
            remember(flow.study.name, code)
            task_screen(flow, code, screen)


try:
    participant_page(flow)
except (StoreBusyError, StudyBusyError) as exc:  # the database went away (down, restarting): nothing is lost
    log.warning("Study page: %s", exc)
    st.title(flow.study.title)
    st.warning(DATABASE_AWAY)
    if (code := st.session_state.get(CODE_KEY)) and not st.session_state.get(ON_PLATFORM_KEY):
        st.caption(f"Participant code: {code}")
    st.stop()
