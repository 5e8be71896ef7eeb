"""The framework's floor for benchmarks/browser_latency.py: a minimal Streamlit page with what a reader
clicks on Explore — 4 columns of 5 cards, each a button and a caption — and a heading that says which one was
clicked. Served with the file watcher off, as app.py is.

    streamlit run benchmarks/minimal_page.py --server.fileWatcherType none
"""
import streamlit as st

st.set_page_config(page_title="minimal", layout="wide")
chosen = st.session_state.setdefault("chosen", "none yet")
st.subheader(f"Chosen: {chosen}")
for place, column in zip(st.columns(4), range(4)):
    with place:
        for row in range(5):
            name = f"card {column}-{row}"
            if st.button(name, key=f"card-{column}-{row}"):
                st.session_state["chosen"] = name
                st.rerun()
            st.caption("A caption of about one line under the card's title, as a snippet would be.")
