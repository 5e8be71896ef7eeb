"""AppTest entry for app_pages/study.py with the fake candidate provider (the engine is not under test)."""
import runpy
from pathlib import Path

import streamlit as st

import study.engine_provider as engine_provider
from study.synthetic import SyntheticProvider

engine_provider.engine_provider = SyntheticProvider
st.set_page_config(page_title="AspectNav study", layout="wide")  # as app.py sets it
runpy.run_path(str(Path(__file__).resolve().parents[2] / "app_pages" / "study.py"), run_name="__main__")
