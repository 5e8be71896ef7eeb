"""The default study's candidates from the real engine (explore.neighbours) on the vital corpus.

The spaces are cheap stand-ins (label one-hots, hashed words) so the test runs in seconds; the
engine, the candidate merge and the study check are the real ones.
"""
from __future__ import annotations

import zlib

import numpy as np
import pytest

from explore.neighbours import Neighbourhood
from explore.spaces.space import Space
from study.candidates import candidates_for
from study.definition import StudyDefinitionError, check_study, load_study
from study.engine_provider import EngineProvider

DIM = 64


def label_space(corpus, name, kind, aspects):
    """Each label a random direction, each article the sum of its labels' plus a little noise (so no
    two rows coincide); the generic stand-in hashes words instead."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    rows = 0.15 * rng.standard_normal((len(corpus), DIM)).astype(np.float32)
    directions: dict[str, np.ndarray] = {}
    for row, article in enumerate(corpus):
        if aspects:
            for token in (f"{a}={label}" for a in aspects for label in article.labels(a)):
                rows[row] += directions.setdefault(token, rng.standard_normal(DIM).astype(np.float32) / 8)
        else:
            for word in article.text.lower().split()[:60]:
                rows[row, zlib.crc32(word.encode()) % DIM] += 1.0
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return Space(name, kind, aspects=aspects)._set_state(rows, corpus.name, corpus.content_hash, "test", "fp32",
                                                         "", 0.0, "test")


@pytest.fixture(scope="module")
def engine(vital_corpus):
    spaces = [
        label_space(vital_corpus, "generic", "generic", ()),
        label_space(vital_corpus, "country", "aspect", ("country",)),
        label_space(vital_corpus, "occupation", "aspect", ("occupation",)),
        label_space(vital_corpus, "union", "union", ("country", "occupation")),
    ]
    return EngineProvider(Neighbourhood(vital_corpus, spaces))


@pytest.mark.slow  # four hnswlib indexes over 10k rows: ~15 s on two cores
def test_the_default_study_gets_credited_candidates_from_the_engine(engine, vital_corpus):
    study = check_study(load_study("vital_default"), vital_corpus, engine.known_spaces(), engine.resolve)
    for task in study.tasks:
        candidates = candidates_for(task, engine, vital_corpus, shuffle_seed=3)
        ids = [c.id for c in candidates]
        assert len(ids) == len(set(ids)) and task.seed not in ids
        credited = {}
        for c in candidates:
            for source in c.sources:
                credited.setdefault(source, []).append(c.id)
        # The links source draws what the links column serves: common-word mentions hidden, so a seed
        # may have fewer than 3 links to give.
        served = engine.neighbourhood.links_of(vital_corpus[task.seed]).ids
        expected = {"generic": 3, "aspect": 3, "union": 3} | ({"links": min(3, len(served))} if served else {})
        assert {s: len(v) for s, v in credited.items()} == expected, task.id
        assert set(credited.get("links", ())) <= set(served[:3])
        assert all(task.label in vital_corpus[i].labels(task.aspect) for i in credited["aspect"]), task.id
        assert 5 <= len(candidates) <= 12


def test_a_space_the_engine_lacks_is_refused_naming_the_task(vital_corpus):
    links_only = EngineProvider(Neighbourhood(vital_corpus, [label_space(vital_corpus, "generic", "generic", ())]))
    with pytest.raises(StudyDefinitionError, match="task 'country-japan': unknown space 'aspect:country'"):
        check_study(load_study("vital_default"), vital_corpus, links_only.known_spaces(), links_only.resolve)
