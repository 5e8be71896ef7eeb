"""The app's view layer, between the Streamlit pages (app_pages/) and the engine (explore/).

Streamlit-free, testable as plain code: cards, columns, figures, markdown, rich_line, trail, url_state, view_state,
and the explore panel's data and events (explore_panel/: Explore's trail, seed card, mix and columns, drawn in the
browser by one component). Streamlit-using (widgets, session state, caches): article_reader, corpus_choice,
engine_cache, view_session, view_widgets, explore_panel's mount.
"""
