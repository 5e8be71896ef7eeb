"""Instance settings: environment first, then Streamlit secrets; a value it cannot read is refused."""
from __future__ import annotations

import pytest

from explore.errors import AspectNavError
from study.instance_settings import STUDY_ONLY_ENV, setting, study_only


def test_the_environment_wins_over_secrets(monkeypatch):
    monkeypatch.setenv("ASPECTNAV_STUDY", "from-env")
    assert setting("ASPECTNAV_STUDY", {"aspectnav_study": "from-secrets"}) == "from-env"
    monkeypatch.delenv("ASPECTNAV_STUDY")
    assert setting("ASPECTNAV_STUDY", {"aspectnav_study": " from-secrets "}) == "from-secrets"
    assert setting("ASPECTNAV_STUDY", None) is None


class RaisingSecrets:
    """Streamlit's secrets object raises when the app has no secrets file."""

    def get(self, key):
        raise FileNotFoundError("No secrets found")


@pytest.mark.parametrize("value, expected", [("1", True), ("TRUE", True), ("yes", True), ("on", True),
                                             ("0", False), ("false", False), ("No", False), ("", False)])
def test_study_only_reads_the_usual_spellings(monkeypatch, value, expected):
    monkeypatch.setenv(STUDY_ONLY_ENV, value)
    assert study_only(RaisingSecrets()) is expected


def test_study_only_comes_from_secrets_when_the_environment_is_silent(monkeypatch):
    monkeypatch.delenv(STUDY_ONLY_ENV, raising=False)
    assert study_only({"aspectnav_study_only": "true"}) is True
    assert study_only(None) is False


def test_an_unreadable_study_only_value_is_refused(monkeypatch):
    monkeypatch.setenv(STUDY_ONLY_ENV, "maybe")
    with pytest.raises(AspectNavError, match="ASPECTNAV_STUDY_ONLY='maybe' is not understood"):
        study_only()
