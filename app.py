"""AspectNav: declares the pages; each page is a thin view over explore/ and training/.

With ASPECTNAV_STUDY_ONLY=1 an instance serves a user study: participants see the study pages only.
"""
import streamlit as st

from explore.errors import AspectNavError
from study.instance_settings import study_only

st.set_page_config(page_title="AspectNav", page_icon=":material/explore:", layout="wide")

try:
    serving_a_study = study_only(st.secrets)
except AspectNavError as exc:
    st.error(str(exc))
    st.stop()

study_pages = [
    st.Page("pages/study.py", title="User study", icon=":material/assignment:", url_path="study",
            default=serving_a_study),
    st.Page("pages/study_results.py", title="Study results", icon=":material/lock:", url_path="study-results"),
]
explore_pages = [
    st.Page("pages/explore.py", title="Explore", icon=":material/explore:", default=True),
    st.Page("pages/maps.py", title="Maps", icon=":material/scatter_plot:"),
    st.Page("pages/corpus.py", title="Corpus", icon=":material/menu_book:"),
    st.Page("pages/evaluation.py", title="Evaluation", icon=":material/bar_chart:"),
]
navigation = st.navigation(study_pages if serving_a_study else explore_pages + study_pages)
navigation.run()
