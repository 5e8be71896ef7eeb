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
    two rows coincide); the generic stand-in hashes words, with a share of the labels' directions (the relevant-first
    columns take their candidates from generic's nearest, explore/relevant_first.py)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    rows = 0.05 * rng.standard_normal((len(corpus), DIM)).astype(np.float32)  # labels dominate: a label-less row stays far
    directions: dict[str, np.ndarray] = {}
    for row, article in enumerate(corpus):
        if aspects:
            for token in (f"{a}={label}" for a in aspects for label in article.labels(a)):
                rows[row] += directions.setdefault(token, rng.standard_normal(DIM).astype(np.float32) / 8)
        else:
            for word in article.text.lower().split()[:60]:
                rows[row, zlib.crc32(word.encode()) % DIM] += 1.0
            # what a real generic space has too: articles of one country or trade read alike
            for token in (f"{a}={label}" for a in ("country", "occupation") for label in article.labels(a)):
                rows[row] += directions.setdefault(token, rng.standard_normal(DIM).astype(np.float32)) / 2
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
    # (no remoteness check: the stand-in generic space hashes words; the real one is tested below)
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
        if task.check:  # the gold decoy or the attention item's article joins, credited to the check
            expected[task.check.source_label] = 1
            assert credited[task.check.source_label] == [task.check.article]
        assert {s: len(v) for s, v in credited.items()} == expected, task.id
        assert set(credited.get("links", ())) <= set(served[:3])
        # the aspect column is served relevant first (explore/relevant_first.py): the seed's related articles, those
        # sharing its label ranked up
        # (this stand-in generic space pools the seed's country-mates too: now that events and works have a country,
        # a Mexican painter's related pool holds two painters for three places, so the third shares nothing)
        sharing = [task.label in vital_corpus[i].labels(task.aspect, inferred=True) for i in credited["aspect"]]
        assert sum(sharing) >= 2, task.id
        assert 5 <= len(candidates) <= 12 + (task.check is not None)


def test_a_space_the_engine_lacks_is_refused_naming_the_task(vital_corpus):
    links_only = EngineProvider(Neighbourhood(vital_corpus, [label_space(vital_corpus, "generic", "generic", ())]))
    with pytest.raises(StudyDefinitionError, match="task 'country-japan': unknown space 'aspect:country'"):
        check_study(load_study("vital_default"), vital_corpus, links_only.known_spaces(), links_only.resolve)


@pytest.mark.slow
def test_remoteness_ranks_the_corpus_by_generic_similarity(engine, vital_corpus):
    seed = vital_corpus.find("Hokusai").id
    far = engine.remoteness(seed)
    assert far[seed] == 0.0 and max(far.values()) == 1.0 and len(far) == len(vital_corpus)
    nearest = [n.id for n in engine.neighbourhood.neighbours(seed, "generic", k=3)]
    assert [far[i] for i in nearest] == sorted(far[i] for i in nearest) and far[nearest[0]] < 0.001


@pytest.mark.slow  # opens the shipped spaces
def test_the_default_study_opens_on_the_shipped_spaces_with_its_decoy_far_from_its_seed(tmp_path):
    """The app's path: study file → corpus → shipped spaces → checked study (gold decoy distance included)."""
    from study.configured import open_study_flow

    flow = open_study_flow("vital_default", f"sqlite:///{tmp_path / 'study.sqlite'}")
    gold = next(task for task in flow.study.check_tasks if str(task.check.kind) == "gold")
    assert flow.provider.remoteness(gold.seed)[gold.check.article] >= 0.9
