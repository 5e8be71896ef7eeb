"""AspectNav: declares the pages; each page is a thin view over explore/ and training/."""
import streamlit as st

st.set_page_config(page_title="AspectNav", page_icon="🧭", layout="wide")

navigation = st.navigation([st.Page("pages/browse.py", title="Browse", icon="📚", default=True)])
navigation.run()
