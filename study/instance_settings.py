"""Settings of the study an app instance serves, read from the environment or Streamlit secrets.

Kept free of heavy imports: app.py reads `study_only` on every start, before any page loads.
"""
from __future__ import annotations

import os
from collections.abc import Mapping

from explore.errors import AspectNavError

STUDY_ENV = "ASPECTNAV_STUDY"
PASSWORD_ENV = "ASPECTNAV_STUDY_PASSWORD"
STUDY_ONLY_ENV = "ASPECTNAV_STUDY_ONLY"
_YES, _NO = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def setting(name: str, secrets: Mapping | None = None) -> str | None:
    """An environment variable, else the same key (lower case) in Streamlit secrets."""
    value = os.environ.get(name, "").strip()
    if value:
        return value
    try:
        found = (secrets or {}).get(name.lower()) or (secrets or {}).get(name)
    except Exception:  # Streamlit raises when no secrets file exists
        found = None
    return str(found).strip() if found else None


def study_only(secrets: Mapping | None = None) -> bool:
    """Whether this instance serves a study to participants: the explore pages would show them the
    very sources the study hides, so such an instance offers the study pages alone."""
    value = (setting(STUDY_ONLY_ENV, secrets) or "0").lower()
    if value not in _YES + _NO:
        raise AspectNavError(f"{STUDY_ONLY_ENV}={value!r} is not understood: use 1 (study pages only) or 0.")
    return value in _YES
