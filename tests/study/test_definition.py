"""Study files: the shipped default, and refusals that name the task."""
from __future__ import annotations

import pytest

from study.definition import StudyDefinitionError, check_study, load_study, study_from_dict
from study.synthetic import TINY_STUDY, tiny_corpus, write_tiny_study


def test_shipped_default_study_fits_the_vital_corpus(vital_corpus):
    study = check_study(load_study("vital_default"), vital_corpus)
    types = [task.task_type for task in study.tasks]
    assert types.count("country") == 5 and types.count("occupation") == 5
    for task in study.tasks:
        assert [s.label for s in task.sources] == ["links", "generic", "aspect", "union"]
        assert task.candidates_per_source == 3 and task.rank_depth == 5 and task.nominal_candidates == 12
        assert task.label in vital_corpus[task.seed].labels(task.aspect)
    assert study.consent and study.intro


def test_definition_round_trips_through_a_dict(tmp_path):
    study = load_study(write_tiny_study(tmp_path))
    assert study_from_dict(study.to_dict()) == study


def _task(**changes):
    return [{**TINY_STUDY["tasks"][0], **changes}, *TINY_STUDY["tasks"][1:]]


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"seed": "Artcle 00"},
         "task 'country-france': seed — No article titled 'Artcle 00' in corpus 'tiny'. Closest titles: Article 00"),
        ({"aspect": "colour"}, "task 'country-france': unknown aspect 'colour'"),
        ({"label": "Atlantis"}, "task 'country-france': no article of corpus 'tiny' has country = 'Atlantis'"),
        ({"sources": ["links", "aspect:colour"]}, "task 'country-france': unknown space 'aspect:colour'"),
        ({"sources": ["links", {"label": "mix", "kind": "blend", "weights": {"country": 1, "mood": 1}}]},
         "task 'country-france', source 'mix': unknown space 'mood'"),
    ],
)
def test_a_study_that_does_not_fit_the_corpus_is_refused_naming_the_task(tmp_path, changes, message):
    study = load_study(write_tiny_study(tmp_path, tasks=_task(**changes)))
    with pytest.raises(StudyDefinitionError) as error:
        check_study(study, tiny_corpus())
    assert message in str(error.value)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"rank_depth": 13}, "task 'country-france': rank_depth = 13 is impossible with 4 sources × 3 candidates"),
        ({"candidates_per_source": 0},
         "task 'country-france': 'candidates_per_source' must be a whole number from 1 to 20 (a participant cannot "
         "read more), not 0."),
        ({"candidates_per_source": 500}, "task 'country-france': 'candidates_per_source' must be a whole number from "
                                         "1 to 20 (a participant cannot read more), not 500."),
        ({"candidates_per_source": True}, "task 'country-france': 'candidates_per_source' must be a whole number"),
        ({"rank_depth": "5"}, "task 'country-france': 'rank_depth' must be a whole number of at least 1, not '5'."),
        ({"sources": ["links", "telepathy"]}, "task 'country-france', source 'telepathy': Unknown kind 'telepathy'"),
        ({"sources": []}, "task 'country-france': 'sources' is empty; expected a list of at least one source"),
        ({"sources": "links"}, "task 'country-france': 'sources' must be a list of at least one source"),
        ({"seed": ""}, "task 'country-france': 'seed' is required: the title of the article"),
        ({"rank-depth": 3}, "task 'country-france': unknown field 'rank-depth'; known fields: sources, "
                            "candidates_per_source, rank_depth, id"),
        ({"id": "country japan"}, "task 'country japan': 'id' must be 1-64 letters, digits"),
        ({"id": "country-japan"}, "task 'country-japan': the id is used twice"),
        ({"sources": ["links", {"label": "mix", "kind": "blend"}]},
         "task 'country-france', source 'mix': A blend needs weights"),
    ],
)
def test_impossible_sizes_and_unknown_sources_are_refused_on_load(tmp_path, changes, message):
    with pytest.raises(StudyDefinitionError) as error:
        load_study(write_tiny_study(tmp_path, tasks=_task(**changes)))
    assert message in str(error.value)


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"defaults": {"rank_depth": 0}}, "Study 'tiny_study', defaults: 'rank_depth' must be a whole number of at "
                                          "least 1, not 0."),
        ({"defaults": {"sources": ["links"], "colour": 1}}, "Study 'tiny_study', defaults: unknown field 'colour'"),
        ({"tasks": []}, "Study 'tiny_study': 'tasks' is empty; expected a non-empty list of tasks."),
        ({"tasks": ["country-france"]}, "Study 'tiny_study', task #1: must be a mapping of sources,"),
        ({"name": "tiny study"}, "Study 'tiny study': 'name' must be 1-64 letters, digits, '.', '_' or '-', not "
                                 "'tiny study'."),
        ({"titel": "Typo"}, "Study 'tiny_study': unknown field 'titel'; known fields: name, title,"),
    ],
)
def test_a_malformed_study_names_the_part_and_what_it_expects(tmp_path, overrides, message):
    with pytest.raises(StudyDefinitionError) as error:
        load_study(write_tiny_study(tmp_path, **overrides))
    assert message in str(error.value)


def test_a_numeric_label_in_yaml_is_text(tmp_path):
    path = write_tiny_study(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace("label: Japan", "label: 1984"), encoding="utf-8")
    assert load_study(path).task("country-japan").label == "1984"


def test_blends_and_other_aspects_are_allowed(tmp_path):
    sources = ["links", "aspect", "aspect:occupation",
               {"label": "blend70", "kind": "blend", "weights": {"country": 0.7, "generic": 0.3}}]
    study = check_study(load_study(write_tiny_study(tmp_path, tasks=_task(sources=sources))), tiny_corpus())
    labels = [(s.label, str(s.query)) for s in study.tasks[0].sources]
    assert labels == [("links", "links"), ("aspect", "aspect:country"), ("aspect:occupation", "aspect:occupation"),
                      ("blend70", "blend:country:0.7,generic:0.3")]


def test_an_unknown_study_name_lists_the_shipped_ones():
    with pytest.raises(StudyDefinitionError, match="vital_default"):
        load_study("no_such_study")
