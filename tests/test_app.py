"""The app's pages through Streamlit's AppTest (no browser)."""
from streamlit.testing.v1 import AppTest

from pathlib import Path

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def run_app():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def test_browse_finds_an_article_and_credits_wikipedia():
    at = run_app()
    at.text_input(key="browse_query").input("Albert Cam").run()
    assert not at.exception
    assert at.header[0].value == "Albert Camus"
    body = " ".join(m.value for m in at.markdown)
    assert "topic: People" in body
    assert "en.wikipedia.org/wiki/Albert_Camus" in body
    assert any("CC BY-SA" in c.value for c in at.sidebar.caption)


def test_browse_suggests_titles_for_a_typo():
    at = run_app()
    at.text_input(key="browse_query").input("Marie Cruie").run()
    assert "No title contains" in at.warning[0].value
    assert "Marie Curie" in " ".join(m.value for m in at.markdown)
