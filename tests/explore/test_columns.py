"""Columns without an engine: the links column still answers, nothing else is offered."""
from explore.columns import explore_columns
from tests.pages.conftest import fixture_corpus


def test_without_an_engine_only_the_links_column_answers():
    corpus = fixture_corpus()
    columns = explore_columns(corpus, None, corpus["p7"], None, 2, blend={"country": 1.0})
    assert [column.kind for column in columns] == ["links"]
    assert [card.title for card in columns[0].cards] == ["Person 8", "Person 12"]
