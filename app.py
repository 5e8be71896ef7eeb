"""AspectNav's frame: declares the pages and draws what they share before the chosen page runs.

Chrome drawn here keeps its widget state across pages: the corpus picker and the Wikipedia credit
(every page), and on the seed pages (Explore, Maps) the URL's seed/k/blend. k itself is the view's: Explore
chooses it in its panel, Maps with a slider. Each
page is a thin view over explore/, training/ and study/; the per-user state is one ExploreView
(app_views/view_state.py). With ASPECTNAV_STUDY_ONLY=1 an instance serves a user study:
participants see the study pages and the credit only — nothing that would reveal the sources.
"""
import logging

import streamlit as st

from app_views.corpus_choice import corpus_picker, study_corpus, wikipedia_credit
from app_views.markdown import escape_markdown
from app_views.url_state import MAP_PARAMS
from app_views.view_session import adopt_url, write_url
from explore.errors import AspectNavError, storage_error
from study.instance_settings import study_only

st.set_page_config(page_title="AspectNav", page_icon=":material/explore:", layout="wide")

try:
    serving_a_study = study_only(st.secrets)
except AspectNavError as exc:
    st.error(str(exc))
    st.stop()

study_pages = [
    st.Page("app_pages/study.py", title="User study", icon=":material/assignment:", url_path="study",
            default=serving_a_study),
    st.Page("app_pages/study_results.py", title="Study results", icon=":material/lock:", url_path="study-results"),
]
maps_page = st.Page("app_pages/maps.py", title="Maps", icon=":material/scatter_plot:")
seed_pages = [
    st.Page("app_pages/explore.py", title="Explore", icon=":material/explore:", default=True),
    maps_page,
]
explore_pages = seed_pages + [
    st.Page("app_pages/corpus.py", title="Corpus", icon=":material/menu_book:"),
    st.Page("app_pages/evaluation.py", title="Evaluation", icon=":material/bar_chart:"),
]
page = st.navigation(study_pages if serving_a_study else explore_pages + study_pages)


def draw_page() -> None:
    if page in explore_pages:
        corpus = corpus_picker()
        wikipedia_credit(corpus)
        if page in seed_pages:
            for problem in adopt_url(corpus):  # before any widget is drawn from the view
                st.warning(escape_markdown(problem))
            write_url(corpus, keep=MAP_PARAMS if page == maps_page else ())
    else:  # the study pages show the study's corpus, whatever the picker chose
        wikipedia_credit(study_corpus())
    page.run()


try:
    draw_page()
except OSError as exc:  # a full, read-only or foreign data home: what to do, never a traceback with server paths
    logging.getLogger("aspectnav.app").exception("The data home refused a read or write")
    st.error(escape_markdown(str(storage_error(exc, "open or store this page's data"))))
