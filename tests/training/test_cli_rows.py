"""`training evaluate --spaces`: rows are space names or queries, spelt as everywhere else."""
import pytest

from explore.errors import InvalidQueryError
from explore.query import Kind, Query, split_queries
from training.cli import evaluation_rows

SPACES = ["generic", "country", "occupation", "union", "union-country-occupation"]


def test_rows_are_space_names_queries_or_labelled():
    items = split_queries("generic,union,aspect:country,mix=blend:country:0.5,occupation:0.5,u2=union-country-occupation")
    assert evaluation_rows(items, SPACES) == [
        ("generic", Query(Kind.SPACE, "generic"), False),
        ("union", Query(Kind.SPACE, "union"), False),  # the space called union, though two union spaces exist
        ("aspect:country", Query(Kind.ASPECT, "country"), False),
        ("mix", Query.blended({"country": 0.5, "occupation": 0.5}), True),
        ("u2", Query(Kind.SPACE, "union-country-occupation"), True),
    ]


def test_the_old_blend_row_is_read_with_a_warning_and_a_bad_row_names_itself():
    with pytest.warns(FutureWarning, match="blend:country:1,occupation:1"):
        assert evaluation_rows(["blend=blend:country+occupation"], SPACES) == [
            ("blend", Query.blended({"country": 1, "occupation": 1}), True)]
    with pytest.raises(InvalidQueryError, match="Unknown kind 'colour'"):
        evaluation_rows(["colour"], SPACES)
