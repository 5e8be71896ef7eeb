"""Shipped recipes load; user recipe files are validated with messages that name the field."""
from __future__ import annotations

import json

import pytest

from explore.corpus.wikidata.recipes import RecipeError, builtin_recipe_names, load_recipe


def test_the_shipped_recipes():
    assert builtin_recipe_names() == ["companies", "films", "people", "wikipedia"]
    companies = load_recipe("companies")
    assert (companies.class_qid, dict(companies.aspects), companies.subclasses) == (
        "Q4830453", {"P17": "country", "P452": "industry"}, True)
    assert (companies.limit, companies.noise, companies.language) == (5000, 10000, "en")
    assert dict(load_recipe("people").aspects) == {"P27": "country", "P106": "occupation"}
    assert dict(load_recipe("films").aspects) == {"P136": "genre", "P495": "country"}
    wikipedia = load_recipe("wikipedia")  # label-only: several properties give one aspect
    assert wikipedia.class_qid is None and {wikipedia.aspects[p] for p in ("P17", "P27", "P495")} == {"country"}


def test_a_recipe_without_a_class_labels_but_cannot_build():
    with pytest.raises(RecipeError, match="'wikipedia' has no \"class\", so it cannot build a corpus; it labels "
                                          "one: `aspectnav corpus label CORPUS --recipe wikipedia`"):
        load_recipe("wikipedia").require_class()
    assert load_recipe("people").require_class() == "Q5"


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


@pytest.mark.parametrize("data, message", [
    ({"class": "4830453", "aspects": {"P17": "country"}},
     "field 'class' must be a Wikidata item id such as \"Q4830453\", got '4830453'"),
    ({"class": "Q1", "aspects": {}}, "field 'aspects' must be an object mapping property ids to aspect names"),
    ({"class": "Q1", "aspects": {"17": "country"}}, "field 'aspects': bad property id '17'; must be an object mapping"),
    ({"class": "Q1", "aspects": {"P17": "9 lives"}}, "field 'aspects.P17' must be an object mapping property ids to "
                                                     "aspect names (1-64 letters, digits"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "limit": 0}, "field 'limit' must be a whole number >= 1, got 0"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "noise": "5"},
     "field 'noise' must be a whole number >= 0, got '5'"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "subclasses": "yes"}, "field 'subclasses' must be true or false"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "language": "English"},
     "field 'language' must be a Wikipedia language code such as \"en\", got 'English'"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "subclass": True},
     "unknown field 'subclass'; known fields: name, class, subclasses,"),
    ({"class": "Q1", "aspects": {"P17": "country"}, "name": "my corpus"},
     "field 'name' must be a corpus name: 1-64 letters"),
    ([{"class": "Q1"}], "a recipe is a JSON object"),
])
def test_invalid_recipes_name_the_file_and_field(tmp_path, data, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecipeError) as error:
        load_recipe(path)
    assert str(error.value).startswith(f"{path}: ") and message in str(error.value)


def test_unknown_recipe_lists_the_shipped_ones():
    with pytest.raises(RecipeError, match="companies, films, people"):
        load_recipe("planets")
