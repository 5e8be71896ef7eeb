"""Keep a participant's place across page reloads without putting their code in a shareable URL.

The code lives in a first-party cookie of this site (SameSite=Strict, Secure over https, one per study, 30 days),
set and cleared by a tiny script; a reload's new session reads it from `st.context.cookies` and resumes. A finished
participant's cookie is cleared, so the next person on a shared lab computer starts afresh.
"""
from __future__ import annotations

import re

import streamlit as st

from app_views.page_script import run_script
from explore.names import check_name

COOKIE_PREFIX = "aspectnav_study_"
MAX_AGE_S = 30 * 24 * 3600
_CODE = re.compile(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){2}")


def cookie_name(study_name: str) -> str:
    return COOKIE_PREFIX + check_name(study_name, "study")


def remembered_code(study_name: str) -> str | None:
    """The code this browser holds for the study, if it looks like one (anything else is ignored)."""
    value = st.context.cookies.get(cookie_name(study_name))
    return value if isinstance(value, str) and _CODE.fullmatch(value) else None


def _set_cookie(study_name: str, value: str, max_age_s: int) -> None:
    # Secure over https (a study served online), so the browser never sends the code over plain http.
    run_script("document.cookie = data.cookie + (location.protocol === 'https:' ? '; Secure' : '');",
               cookie=f"{cookie_name(study_name)}={value}; Max-Age={max_age_s}; Path=/; SameSite=Strict")


def remember(study_name: str, code: str) -> None:
    if not _CODE.fullmatch(code):
        raise ValueError("not a participant code")
    _set_cookie(study_name, code, MAX_AGE_S)


def forget(study_name: str) -> None:
    _set_cookie(study_name, "", 0)
