"""A script a page runs carries data only as escaped JSON: no value can end the <script> or start another."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from app_views.page_script import script_html, script_json

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ["https://x.org/</script><script>alert(1)</script>", "</SCRIPT >", "<!--<script>", "a&b>c",
           "line\u2028sep\u2029end", "\"); alert(1); (\""]


@pytest.mark.parametrize("value", HOSTILE)
def test_a_hostile_value_stays_data_and_round_trips(value):
    html = script_html("window.x = data.value;", value=value)
    assert html.lower().count("<script") == 1 and html.lower().count("</script") == 1
    inner = html[len("<script>"):-len("</script>")]
    assert not re.search(r"[<>&\u2028\u2029]", inner)
    assert json.loads(script_json(value)) == value


def test_no_page_builds_script_text_outside_the_one_helper():
    """The class: every <script> a page writes goes through app_views/page_script.py."""
    offenders = [str(path.relative_to(ROOT)) for folder in ("app_pages", "app_views")
                 for path in (ROOT / folder).rglob("*.py")
                 if path.name != "page_script.py" and "<script" in path.read_text().lower()]
    offenders += ["app.py"] if "<script" in (ROOT / "app.py").read_text().lower() else []
    assert offenders == []
