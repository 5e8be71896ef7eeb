"""The app's view layer, between the Streamlit pages (app_pages/) and the engine (explore/).

Streamlit-free, testable as plain code: cards, columns, figures, markdown, trail, url_state, view_state.
Streamlit-using (widgets, session state, caches): article_reader, corpus_choice, engine_cache,
view_session, view_widgets.
"""
