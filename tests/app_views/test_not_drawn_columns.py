"""Columns under the judged bar on vital (kind, century) are not drawn, said once in the left-out line, and still
weighed in the mix."""
from __future__ import annotations

import pytest

from app_views.columns import left_out_line
from explore.mix import default_mix
from explore.relevant_first import NOT_DRAWN


@pytest.fixture(scope="module")
def vital_engine(tmp_path_factory):
    from benchmarks.common import environment
    from explore.corpus import open_corpus
    from explore.neighbours import Neighbourhood

    with environment(ASPECTNAV_HOME=str(tmp_path_factory.mktemp("home"))):
        yield Neighbourhood.open(open_corpus("vital"), progress=False)


def test_spaces_under_the_bar_are_no_column_and_are_named_once(vital_engine):
    assert set(vital_engine.spaces_not_drawn()) == set(NOT_DRAWN["vital"]) == {"kind", "century"}
    chlorophyll = vital_engine.corpus.find("Chlorophyll")
    drawn = {q.name for q in vital_engine.query_kinds(seed=chlorophyll) if q.name}
    assert not drawn & {"kind", "century"}
    line = left_out_line(vital_engine, chlorophyll)
    assert line.startswith(r"*Chlorophyll* has no country or occupation label, so the country, occupation, union and "
                           r"intersection spaces are left out\.")
    assert line.count("kind") == 1 and "The kind space is not drawn as a column" in line
    assert "century" not in line  # Chlorophyll has no century: nothing to say of a column it would not get anyway


def test_a_space_not_drawn_still_weighs_in_the_mix(vital_engine):
    revolution = vital_engine.corpus.find("French Revolution")
    assert "century" in dict(default_mix(vital_engine, revolution).weights)
