"""When, from Wikidata's dates: the wikipedia recipe's inception, publication, start, end and point in time become a
century, from a dump's time values and from a SPARQL endpoint's dates alike."""
from __future__ import annotations

import pytest

from explore.corpus.era import century_of_wikidata_time
from explore.corpus.wikidata.dump_labels import DumpLabelCheckpoint, _truthy_values
from explore.corpus.wikidata.queries import parse_aspect_values
from explore.corpus.wikidata.recipes import load_recipe


@pytest.mark.parametrize("time, precision, century", [
    ("+1789-07-14T00:00:00Z", 11, "18th century"),
    ("+1800-00-00T00:00:00Z", 7, "18th century"),  # "18th century" at century precision
    ("+1901-00-00T00:00:00Z", 7, "20th century"),
    ("-0500-00-00T00:00:00Z", 9, "5th century BC"),
    ("+0079-08-24T00:00:00Z", 11, "1st century"),
    ("-13798000000-00-00T00:00:00Z", 3, None),  # the age of the universe: less precise than a century
    ("+2000-00-00T00:00:00Z", 6, None),  # a millennium
    ("+0000-00-00T00:00:00Z", 9, None),
    ("not a time", 9, None),
])
def test_a_wikidata_time_gives_its_century_or_none(time, precision, century):
    assert century_of_wikidata_time(time, precision) == century


def _time_claim(time: str, precision: int, rank: str = "normal") -> dict:
    return {"rank": rank, "mainsnak": {"snaktype": "value", "datavalue": {
        "type": "time", "value": {"time": time, "precision": precision, "calendarmodel": "Q1985727"}}}}


def test_a_dump_entity_s_dates_become_its_century():
    recipe = load_recipe("wikipedia")
    checkpoint = DumpLabelCheckpoint(dump={}, key="test")
    claims = {"P571": [_time_claim("+1789-05-05T00:00:00Z", 11)],
              "P582": [_time_claim("+1799-11-09T00:00:00Z", 11)],
              "P577": [_time_claim("-13798000000-00-00T00:00:00Z", 3)],  # too vague: no label, not an error
              "P31": [{"rank": "normal", "mainsnak": {"snaktype": "value", "datavalue": {
                  "type": "wikibase-entityid", "value": {"entity-type": "item", "id": "Q10931"}}}}]}
    values = _truthy_values(claims, recipe, checkpoint)
    assert values == {"century": ["=18th century"], "kind": ["Q10931"]}
    assert checkpoint.not_items == 0


def test_an_endpoint_s_dates_become_their_century():
    recipe = load_recipe("wikipedia")
    rows = [{"item": {"type": "uri", "value": "http://www.wikidata.org/entity/Q6534"},
             "property": {"type": "literal", "value": "P571"},
             "value": {"type": "literal", "datatype": "http://www.w3.org/2001/XMLSchema#dateTime",
                       "value": "1789-05-05T00:00:00Z"}},
            {"item": {"type": "uri", "value": "http://www.wikidata.org/entity/Q6534"},
             "property": {"type": "literal", "value": "P17"},
             "value": {"type": "uri", "value": "http://www.wikidata.org/entity/Q142"},
             "valueLabel": {"type": "literal", "value": "France"}}]
    assert parse_aspect_values(recipe, rows) == {"Q6534": {"century": ("18th century",), "country": ("France",)}}
