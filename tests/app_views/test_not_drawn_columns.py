"""Spaces a corpus serves with a setting of their own (vital's kind and century: explore/relevant_first.py BY_SPACE,
chosen on judged seeds) are drawn, and say how they are ordered; a space under the judged bar (NOT_DRAWN) is not
drawn, is said once in the left-out line, and still weighs in the mix."""
from __future__ import annotations

import pytest

from app_views.columns import column_description, left_out_line
from explore.mix import default_mix
from explore.query import Kind, Query
from explore.relevant_first import BY_SPACE, NOT_DRAWN


@pytest.fixture(scope="module")
def vital_engine(tmp_path_factory):
    from benchmarks.common import environment
    from explore.corpus import open_corpus
    from explore.neighbours import Neighbourhood

    with environment(ASPECTNAV_HOME=str(tmp_path_factory.mktemp("home"))):
        yield Neighbourhood.open(open_corpus("vital"), progress=False)


def test_kind_and_century_are_drawn_with_a_serving_of_their_own(vital_engine):
    assert set(BY_SPACE["vital"]) == {"kind", "century"} and not NOT_DRAWN.get("vital")
    assert vital_engine.spaces_not_drawn() == {}
    novel = vital_engine.corpus.find("Pride and Prejudice")
    drawn = {q.name for q in vital_engine.query_kinds(seed=novel) if q.name}
    assert {"kind", "century"} <= drawn
    kind = [n.title for n in vital_engine.neighbours(novel, "aspect:kind", 5)]
    assert "Jane Austen" in kind and len(kind) == 5
    share = BY_SPACE["vital"]["kind"].generic_share
    assert column_description(vital_engine, Query(Kind.ASPECT, "kind")).endswith(
        f"ordered {1 - share:.0%} by the kind space, {share:.0%} by overall similarity.")
    # another corpus's space of the same name is served as every aspect column is
    policy = vital_engine.relevant_first
    assert policy.serving_for(Kind.ASPECT, {"kind": 1.0}, "other") == policy.serving[Kind.ASPECT]


def test_a_space_under_the_bar_is_no_column_is_named_once_and_still_weighs_in_the_mix(vital_engine, monkeypatch):
    monkeypatch.setattr("explore.neighbours.NOT_DRAWN", {"vital": {"kind": 0.80, "century": 0.88}})
    assert set(vital_engine.spaces_not_drawn()) == {"kind", "century"}
    chlorophyll = vital_engine.corpus.find("Chlorophyll")
    drawn = {q.name for q in vital_engine.query_kinds(seed=chlorophyll) if q.name}
    assert not drawn & {"kind", "century"}
    line = left_out_line(vital_engine, chlorophyll)
    assert line.startswith(r"*Chlorophyll* has no country or occupation label, so the country, occupation, union and "
                           r"intersection spaces are left out\.")
    assert line.count("kind") == 1 and "The kind space is not drawn as a column" in line
    assert "century" not in line  # Chlorophyll has no century: nothing to say of a column it would not get anyway
    revolution = vital_engine.corpus.find("French Revolution")
    assert "century" in dict(default_mix(vital_engine, revolution).weights)
