"""The study an app instance runs, and its results password, from environment or Streamlit secrets.

`ASPECTNAV_STUDY` (a study file or shipped name; default vital_default), `ASPECTNAV_STUDY_DB`
(a database URL; default an SQLite file under the data home), `ASPECTNAV_STUDY_PASSWORD` (the
results password), `ASPECTNAV_STUDY_ONLY` (1/true/yes: the app shows participants the study and
nothing else); the same keys in lower case may sit in .streamlit/secrets.toml instead.
"""
from __future__ import annotations

import hmac
import os
from typing import Callable, Mapping

from study.definition import DEFAULT_STUDY, StudyDefinition, check_study, load_study
from study.instance_settings import PASSWORD_ENV, STUDY_ENV, STUDY_ONLY_ENV, setting, study_only
from study.online_settings import check_database_for, processes_from_environment
from study.sessions import ParticipantFlow, open_flow
from study.store import DATABASE_ENV, StoreConfig, StudyStore, open_store, resolve_url

__all__ = ["PASSWORD_ENV", "STUDY_ENV", "STUDY_ONLY_ENV", "configured_store", "configured_study", "open_study_flow",
           "password_matches", "setting", "study_only"]


def configured_study(secrets: Mapping | None = None) -> StudyDefinition:
    return load_study(setting(STUDY_ENV, secrets) or DEFAULT_STUDY)


def configured_store(study_name: str, secrets: Mapping | None = None) -> StudyStore:
    """The study's database; an unknown SQLite file is refused rather than created empty."""
    return open_store(study_name, StoreConfig(url=setting(DATABASE_ENV, secrets), create=False))


def open_study_flow(study_ref: str | None = None, database_url: str | None = None,
                    corpus_loader: Callable | None = None, engine_loader: Callable | None = None) -> ParticipantFlow:
    """Study file → corpus → engine → checked study → store → flow; any refusal is an AspectNavError."""
    from explore.corpus import open_corpus
    from study.engine_provider import engine_provider

    study = load_study(study_ref or DEFAULT_STUDY)
    # An instance that `aspectnav study online` started as one of several processes refuses an SQLite file itself
    # too (say, one started by hand with the launcher's environment), before loading anything.
    check_database_for(processes_from_environment(os.environ), resolve_url(study.name, database_url))
    corpus = (corpus_loader or open_corpus)(study.corpus)
    provider = engine_provider(corpus, engine_loader)
    study = check_study(study, corpus, provider.known_spaces(), provider.resolve, provider.remoteness)
    return open_flow(study, open_store(study.name, StoreConfig(url=database_url)), provider, corpus)


def password_matches(given: str, expected: str | None) -> bool:
    """Constant-time comparison; no password configured means no access at all."""
    if not expected or not given:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())
