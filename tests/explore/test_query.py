import pytest

from explore.errors import InvalidQueryError
from explore.query import Blend, Kind, Query, split_queries


@pytest.mark.parametrize("text", ["links", "generic", "generic:generic-mpnet", "aspect:country", "union",
                                  "union:union-country-occupation", "intersection", "space:topic",
                                  "blend:occupation:0.7,country:0.3", "blend:a:1,b:0.3333333333333333"])
def test_parse_and_str_round_trip(text):
    query = Query.parse(text)
    assert str(query) == text and Query.parse(str(query)) == query


def test_blend_round_trips_its_weights_and_normalises_for_ranking():
    blend = Blend.parse(" occupation:7 , country:3 ")
    assert str(blend) == "occupation:7,country:3" and Blend.parse(str(blend)) == blend
    assert blend.normalised() == {"occupation": 0.7, "country": 0.3}
    assert Blend.of({"a": 0.5, "b": 0}).as_dict() == {"a": 0.5}  # zero weights are left out
    assert Query.blended({"a": 1}) == Query.parse("blend:a:1")


@pytest.mark.parametrize("text, message", [
    ("", "Empty kind; valid kinds: links, morelike, generic"),
    ("colour", "Unknown kind 'colour' in 'colour'; valid kinds: links"),
    ("aspect", "Kind aspect needs a name: aspect:<name>"),
    ("aspect:", "empty name after ':'"),
    ("links:x", "Kind links takes no name"),
    ("union:a:b", "Bad name 'a:b'"),
    ("blend", "A blend needs weights"),
    ("blend:country:high", "Weight of 'country' must be a number, got 'high'"),
    ("blend:country", "Bad blend part 'country': use space:weight"),
    ("blend:country:1,country:2", "names space 'country' a second time"),
    ("blend:country:0", "at least one space with a positive weight"),
])
def test_errors_name_the_bad_part_and_the_choices(text, message):
    with pytest.raises(InvalidQueryError, match=message.replace("(", r"\(").replace("[", r"\[")):
        Query.parse(text)


def test_spellings_of_earlier_releases_are_read_with_a_deprecation_warning():
    with pytest.warns(FutureWarning, match="write 'occupation:0.7,country:0.3'"):
        assert Blend.parse("occupation=0.7,country=0.3") == Blend.parse("occupation:0.7,country:0.3")
    with pytest.warns(FutureWarning, match="write 'blend:country:1,occupation:1'"):
        assert Query.parse("blend:country+occupation").blend.normalised() == {"country": 0.5, "occupation": 0.5}


def test_a_query_is_hashable_and_its_kind_typed():
    query = Query.parse("aspect:country")
    assert query.kind is Kind.ASPECT and query.name == "country"
    assert {query: 1}[Query(Kind.ASPECT, "country")] == 1


def test_split_queries_keeps_a_blends_weights_together():
    assert split_queries("generic, country,mix=blend:country:0.5,occupation:0.5,union") == [
        "generic", "country", "mix=blend:country:0.5,occupation:0.5", "union"]
    assert split_queries("blend:a:1,aspect:country") == ["blend:a:1", "aspect:country"]
