"""The neighbour list beside two maps: the union of the seed's k nearest in each space, best-ranked first, with
the similarity of each in both spaces (on the fixture corpus's hand-made spaces)."""
import numpy as np
import pytest

from explore.map_neighbours import map_neighbours, neighbour_ids
from tests.app_pages.conftest import fixture_engine
from tests.fixture_corpora import fixture_corpus


@pytest.fixture(scope="module")
def engine():
    return fixture_engine(fixture_corpus())


def test_the_list_is_the_union_of_both_spaces_nearest_with_both_similarities(engine):
    seed = engine.corpus["p7"]
    names = ["generic", "country"]
    nearest = {name: neighbour_ids(engine, name, 5, seed) for name in names}
    listed = map_neighbours(engine, names, nearest, seed)
    assert {n.id for n in listed} == set(nearest["generic"]) | set(nearest["country"])
    assert "p7" not in {n.id for n in listed}
    for neighbour in listed:
        for i, name in enumerate(names):
            space = engine.spaces[name]
            vectors = space.embeddings_[[engine.corpus.position["p7"], engine.corpus.position[neighbour.id]]]
            assert neighbour.similarities[i] == pytest.approx(float(vectors[0] @ vectors[1]), abs=1e-3)
            in_list = neighbour.id in nearest[name]
            assert (neighbour.ranks[i] is not None) == in_list
            if in_list:
                assert neighbour.ranks[i] == nearest[name].index(neighbour.id) + 1
    best = [min(r for r in n.ranks if r is not None) for n in listed]
    assert best == sorted(best) and listed[0].ranks[0] == 1  # best-ranked first; generic's first comes first


def test_the_country_space_brings_same_country_articles_close(engine):
    seed = engine.corpus["p7"]
    nearest = {"country": neighbour_ids(engine, "country", 5, seed)}
    listed = map_neighbours(engine, ["country"], nearest, seed)
    country = seed.labels("country")
    assert all(engine.corpus[n.id].labels("country") == country for n in listed)
    assert np.all(np.diff([n.similarities[0] for n in listed]) <= 1e-6)  # one space: nearest first


def test_no_neighbours_lists_nothing(engine):
    assert map_neighbours(engine, ["generic"], {"generic": []}, engine.corpus["p7"]) == []
