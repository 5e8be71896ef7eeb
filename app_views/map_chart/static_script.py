"""Plotly.js for the maps' component, served by Streamlit's static file serving (server.enableStaticServing in
.streamlit/config.toml, files of the `static` folder beside app.py at app/static/): the plotly package's own
plotly.min.js, copied there once per version (a build output, not in git), so the page and the Python figures
always speak the same Plotly version."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import plotly

from explore.errors import AspectNavError

SOURCE = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
ENDPOINT = "app/static"


def _static_folder() -> Path:
    """The `static` folder beside the script Streamlit runs (app.py; a benchmark page runs from benchmarks/)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx()
    main = Path(ctx.main_script_path) if ctx is not None else Path(__file__).resolve().parents[2] / "app.py"
    return main.resolve().parent / "static"


def static_script() -> Path:
    """The served copy of plotly.min.js, made if missing or stale."""
    static = _static_folder()
    target = static / f"plotly-{plotly.__version__}.min.js"
    if not target.exists() or target.stat().st_size != SOURCE.stat().st_size:
        if not SOURCE.exists():
            raise AspectNavError(f"The plotly package has no {SOURCE.name} at {SOURCE.parent}: reinstall it "
                                 "(pip install --force-reinstall plotly).")
        try:
            static.mkdir(exist_ok=True)
            # one partial file per thread: two first Maps pages at once must not write into the same one
            partial = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.part")
            shutil.copyfile(SOURCE, partial)
            partial.replace(target)
        except OSError as error:
            raise AspectNavError(f"Could not copy Plotly.js into {static} for the maps "
                                 f"({error.strerror or error}): the app's folder must be writable once, or copy "
                                 f"{SOURCE} to {target} yourself.") from error
    return target


def plotly_script_url() -> str:
    """The URL path of the served Plotly.js, under the server's base path."""
    import streamlit as st

    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return "/" + "/".join(filter(None, [base, ENDPOINT, static_script().name]))
