"""The maintainers' password: one login and one throttle for everything a reader must not do or see, study results
and every action that writes to the data home (training a space; building maps or spaces, imports) with the shell
commands that do it. Without a configured password all of it stays off; readers never see a maintainer's form.

The password is ASPECTNAV_STUDY_PASSWORD (or `aspectnav_study_password` in .streamlit/secrets.toml); unlocking on
one page unlocks every page of the session.
"""
from __future__ import annotations

import math
import os
from secrets import token_hex

import streamlit as st

from study import login_throttle as throttles
from study.instance_settings import PASSWORD_ENV, setting
from study.online_settings import PUBLIC_URL_ENV

UNLOCKED_KEY = "maintainer_unlocked"
LOGIN_SESSION_KEY = "maintainer_login_session"


def maintainer_password() -> str | None:
    return setting(PASSWORD_ENV, st.secrets)


def is_maintainer() -> bool:
    """Whether this session gave the maintainers' password (and one is still configured)."""
    return bool(st.session_state.get(UNLOCKED_KEY)) and bool(maintainer_password())


@st.cache_resource(show_spinner=False)
def login_throttle() -> throttles.LoginThrottle:
    """One per server process, shared by every session and page: a new tab or another page does not reset a
    client's count."""
    return throttles.LoginThrottle()


def login_source() -> throttles.LoginSource:
    """This session (a random id kept in its state) and the client's address where Streamlit knows it;
    `st.context.ip_address` is None for local connections, and then the session and the server-wide count
    are what throttle. Behind the proxy `aspectnav study online` writes (it sets the public address), every
    connection is local: the client's address is the last one in X-Forwarded-For, which that nginx appends itself."""
    session = st.session_state.setdefault(LOGIN_SESSION_KEY, token_hex(16))
    address = st.context.ip_address
    if address is None and os.environ.get(PUBLIC_URL_ENV):
        forwarded = (st.context.headers.get("X-Forwarded-For") or "").split(",")[-1].strip()
        address = forwarded or None
    return throttles.LoginSource(session, address)


def wait_message(wait_s: float) -> str:
    return f"Too many wrong passwords. Try again in {math.ceil(wait_s)} seconds."


def maintainer_login(place: str) -> bool:
    """True for a maintainer; otherwise the password form (keys `<place>_login`, `<place>_password`) and False.
    Call only where a password is configured (`maintainer_password()`): without one there is nothing to unlock."""
    if is_maintainer():
        return True
    from study.configured import password_matches

    with st.form(f"{place}_login"):
        given = st.text_input("Maintainers' password", type="password", key=f"{place}_password")
        if st.form_submit_button("Unlock"):
            throttle, source = login_throttle(), login_source()
            if (wait := throttle.admit(source)) > 0:
                st.error(wait_message(wait))  # refused unchecked: waiting out the delay is the only way on
            elif password_matches(given, maintainer_password()):
                throttle.succeeded(source)
                st.session_state[UNLOCKED_KEY] = True
                st.rerun()
            elif (wait := throttle.failed(source)) > 0:
                st.error(f"Wrong password. {wait_message(wait)}")
            else:
                st.error("Wrong password.")
    return False
