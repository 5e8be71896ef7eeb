"""AspectNav: declares the pages; each page is a thin view over explore/ and training/."""
import streamlit as st

st.set_page_config(page_title="AspectNav", page_icon=":material/explore:", layout="wide")

navigation = st.navigation([
    st.Page("pages/explore.py", title="Explore", icon=":material/explore:", default=True),
    st.Page("pages/maps.py", title="Maps", icon=":material/scatter_plot:"),
    st.Page("pages/corpus.py", title="Corpus", icon=":material/menu_book:"),
    st.Page("pages/evaluation.py", title="Evaluation", icon=":material/bar_chart:"),
    st.Page("pages/study.py", title="User study", icon=":material/assignment:", url_path="study"),
    st.Page("pages/study_results.py", title="Study results", icon=":material/lock:", url_path="study-results"),
])
navigation.run()
