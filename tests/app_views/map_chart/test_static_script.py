"""The maps' Plotly.js: the plotly package's own file, copied once into the static folder Streamlit serves, under
the server's base path; a folder that cannot be written says what to do."""
import plotly
import pytest

from app_views.map_chart import static_script
from explore.errors import AspectNavError


def test_the_package_s_plotly_js_is_copied_once_and_served_under_the_base_path(tmp_path, monkeypatch):
    monkeypatch.setattr(static_script, "_static_folder", lambda: tmp_path / "static")
    served = static_script.static_script()
    assert served == tmp_path / "static" / f"plotly-{plotly.__version__}.min.js"
    assert served.read_bytes() == static_script.SOURCE.read_bytes()
    made = served.stat().st_mtime_ns
    assert static_script.static_script().stat().st_mtime_ns == made  # not copied again
    from streamlit import config

    before = config.get_option("server.baseUrlPath")
    config.set_option("server.baseUrlPath", "/maps-app/")
    try:
        assert static_script.plotly_script_url() == f"/maps-app/app/static/plotly-{plotly.__version__}.min.js"
    finally:
        config.set_option("server.baseUrlPath", before)


def test_a_folder_that_cannot_be_made_is_named_with_what_to_do(tmp_path, monkeypatch):
    (tmp_path / "app").write_text("a file where the app's folder should be")
    monkeypatch.setattr(static_script, "_static_folder", lambda: tmp_path / "app" / "static")
    with pytest.raises(AspectNavError, match="Could not copy Plotly.js into .*copy .*plotly.min.js to"):
        static_script.static_script()
