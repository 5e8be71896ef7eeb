"""Shipped recipes load; user recipe files are validated with messages that name the field."""
from __future__ import annotations

import json

import pytest

from explore.corpus.wikidata.recipes import RecipeError, builtin_recipe_names, load_recipe


def test_the_three_shipped_recipes():
    assert builtin_recipe_names() == ["companies", "films", "people"]
    companies = load_recipe("companies")
    assert (companies.class_qid, dict(companies.aspects), companies.subclasses) == (
        "Q4830453", {"P17": "country", "P452": "industry"}, True)
    assert (companies.limit, companies.noise, companies.language) == (5000, 10000, "en")
    assert dict(load_recipe("people").aspects) == {"P27": "country", "P106": "occupation"}
    assert dict(load_recipe("films").aspects) == {"P136": "genre", "P495": "country"}


def test_overrides_do_not_change_the_cache_identity():
    companies = load_recipe("companies")
    smaller = companies.with_overrides(limit=10, noise=0)
    assert (smaller.limit, smaller.noise) == (10, 0)
    assert smaller.query_key == companies.query_key


def test_a_user_recipe_file(tmp_path):
    path = tmp_path / "painters.json"
    path.write_text(json.dumps({"class": "Q5", "subclasses": False, "aspects": {"P27": "country"}, "noise": 0}))
    recipe = load_recipe(str(path))
    assert (recipe.name, recipe.class_qid, recipe.limit, recipe.noise) == ("painters", "Q5", 5000, 0)


@pytest.mark.parametrize("data, field", [
    ({"class": "4830453", "aspects": {"P17": "country"}}, "class"),
    ({"class": "Q1", "aspects": {}}, "aspects"),
    ({"class": "Q1", "aspects": {"17": "country"}}, "17"),
    ({"class": "Q1", "aspects": {"P17": "country", "P27": "country"}}, "aspects"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "limit": 0}, "limit"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "language": "English"}, "language"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "subclass": True}, "subclass"),
])
def test_invalid_recipes_name_the_field(tmp_path, data, field):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecipeError, match=field):
        load_recipe(path)


def test_unknown_recipe_lists_the_shipped_ones():
    with pytest.raises(RecipeError, match="companies, films, people"):
        load_recipe("planets")
