"""Where, when and what kind for articles that are neither people nor places, with each label's source."""
from __future__ import annotations

import dataclasses

import pytest

from explore.corpus.label_source import LabelOrigin, LabelSource, origins
from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.store import load_corpus, save_corpus
from explore.corpus.thing_aspects import lead_where, thing_aspects, where_of
from explore.corpus.vital import text_labels


@pytest.mark.parametrize("description, countries", [
    ("1960 American horror film", ["United States"]),
    ("Revolution in France from 1789 to 1799", ["France"]),
    ("1941 Japanese attack on the US", ["Japan", "United States"]),
    ("River in Turkey, Iraq, and Syria", ["Turkey", "Iraq", "Syria"]),
    ("Logographic writing system used for Chinese", []),  # a language's name, not a place
    ("Set of letters used to write a given language", []),
    ("Species of antelope found in Africa", []),  # a continent is no country
])
def test_where(description, countries):
    assert where_of(description) == countries


def test_a_lead_gives_where_only_from_what_it_says_the_thing_is():
    assert lead_where("Psycho is a 1960 American psychological horror film directed by Alfred Hitchcock.") == [
        "United States"]
    assert lead_where("Chess is a board game for two players, which spread from India to Persia.") == []


def test_each_label_records_its_source():
    found = thing_aspects("1968 film by Stanley Kubrick", "2001 is a 1968 British-American science fiction film.")
    assert found.labels == {"century": ["20th century"], "kind": ["film or television"],
                            "country": ["United Kingdom", "United States"]}
    assert found.sources == {"century": LabelSource.DESCRIPTION, "kind": LabelSource.DESCRIPTION,
                             "country": LabelSource.LEAD}


def test_people_and_places_keep_their_own_rules_and_things_get_the_new_ones():
    person = text_labels("Jane Austen", "English novelist (1775–1817)", "People", "Jane Austen was an English novelist.")
    assert "kind" not in person.labels and person.labels["occupation"] == ["novelist"]
    assert person.sources["century"] == LabelSource.DESCRIPTION
    war = text_labels("American Civil War", "1861–1865 conflict in the United States", "History", "")
    assert war.labels == {"topic": ["History"], "country": ["United States"], "century": ["19th century"],
                          "kind": ["war"]}
    assert "topic" not in war.sources  # the data package's own filing names no source


def test_sources_survive_a_save_and_load_and_are_not_claimed_for_labels_replaced_since(tmp_path):
    article = Article(id="a", title="A", text="t", aspects={"kind": ("war",), "topic": ("History",)},
                      sources=origins({"kind": ("war",)}, {"kind": LabelSource.DESCRIPTION}),
                      inferred={"field": ("Modern history",)})
    save_corpus(Corpus(name="c", articles=[article], provenance=Provenance(source="s", date="d")), tmp_path / "c")
    loaded = load_corpus(tmp_path / "c").articles[0]
    assert loaded.sources == {"kind": LabelOrigin("description", ("war",))}
    assert loaded.label_source("kind") == "description"
    assert loaded.label_source("field") == "inferred"
    assert loaded.label_source("topic") is None
    # a Wikidata run or an attached file replaces the labels and keeps the rest of the article as it was
    relabelled = dataclasses.replace(loaded, aspects={**loaded.aspects, "kind": ("revolution",)})
    assert relabelled.label_source("kind") is None


def test_a_hostile_description_or_lead_is_read_only_as_far_as_a_description_or_first_sentence_goes():
    """An import may hand in a megabyte where a line belongs: the rules read no further than MAX_*_CHARS, so the
    labels are those of the start and nothing stored is the hostile text's."""
    from explore.corpus.text_labels import MAX_DESCRIPTION_CHARS, text_labels

    hostile = "1968 film by Q142\u0000<script>alert(1)</script> " + "x" * 1_000_000
    found = text_labels("t", hostile, "Uncategorized", "Psycho is a 1960 American film. " + "1999–" * 200_000)
    assert found.labels == {"century": ["20th century"], "kind": ["film or television"], "country": ["United States"]}
    assert all(len(label) < 40 for labels in found.labels.values() for label in labels)
    assert MAX_DESCRIPTION_CHARS < 1000
