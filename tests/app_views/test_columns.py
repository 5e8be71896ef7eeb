"""Columns without an engine: the links column still answers, nothing else is offered."""
from app_views.columns import explore_columns
from explore.query import Blend
from tests.fixture_corpora import fixture_corpus


def test_without_an_engine_only_the_links_column_answers():
    corpus = fixture_corpus()
    columns = explore_columns(corpus, None, corpus["p7"], None, 2, blend=Blend.of({"country": 1.0}))
    assert [str(column.query) for column in columns] == ["links"]
    assert [card.title for card in columns[0].cards] == ["Person 8", "Person 12"]


def test_a_map_plan_keeps_the_seed_and_its_neighbours_in_the_sample_and_marks_them():
    from app_views.columns import map_plan, map_side
    from explore.maps import ProjectionParams
    from tests.app_pages.conftest import fixture_engine

    corpus = fixture_corpus()
    engine = fixture_engine(corpus)
    seed = corpus["p7"]
    plan = map_plan(engine, seed, ["generic", "country"], 4, 30)
    in_sample = {corpus.articles[row].id for row in plan.sample.rows}
    assert seed.id in in_sample and all(set(ids) <= in_sample and len(ids) == 4 for ids in plan.neighbours.values())
    points = map_side(engine, plan, "country", seed, "country", ProjectionParams(perplexity=5, n_iter=250))
    roles = dict(zip(points.ids, points.role))
    assert roles[seed.id] == "seed" and {roles[i] for i in plan.neighbours["country"]} == {"neighbour"}
    assert points.coords.shape == (len(plan.sample.rows), 2)
