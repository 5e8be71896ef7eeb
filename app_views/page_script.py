"""The one way a page runs a script: the script text is a constant of the code, and any data it needs goes in as
JSON that HTML cannot end early (<, >, & and U+2028/U+2029 escaped), so no value can close the <script> or open
another. Nothing else in the app writes a <script> (a test holds the class)."""
from __future__ import annotations

import json

import streamlit as st

_HTML_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028",
                            "\u2029": "\\u2029"})


def script_json(value) -> str:
    """`value` as a JavaScript/JSON literal safe inside <script> (the escapes are JSON's own: it parses back
    unchanged)."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False).translate(_HTML_SAFE)


def script_html(body: str, **data) -> str:
    """`<script>` running `body` (constant code) with `data` (the keyword arguments) as its one variable."""
    return f"<script>(function (data) {{ {body} }})({script_json(data)});</script>"


def run_script(body: str, **data) -> None:
    """Run `body` in the page with `data` bound as `data` (see script_html). The element is as wide as its content
    (none): in a row of elements it takes no room from the others."""
    st.html(script_html(body, **data), width="content", unsafe_allow_javascript=True)
