"""`streamlit run` entry for app_pages/study_results.py alone (run from app_pages/, `explore` would name the
Explore page instead of the engine package), with the app's wide layout."""
import runpy
from pathlib import Path

import streamlit as st

st.set_page_config(page_title="AspectNav study results", layout="wide")  # as app.py sets it
runpy.run_path(str(Path(__file__).resolve().parents[2] / "app_pages" / "study_results.py"), run_name="__main__")
