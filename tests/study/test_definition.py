"""Study files: the shipped default, and refusals that name the task."""
from __future__ import annotations

import pytest

from study.definition import StudyDefinitionError, check_study, load_study, study_from_dict
from study.synthetic import TINY_STUDY, tiny_corpus, write_tiny_study


def test_shipped_default_study_fits_the_vital_corpus(vital_corpus):
    from study.task_order import TaskOrder

    study = check_study(load_study("vital_default"), vital_corpus)
    types = [task.task_type for task in study.comparison_tasks]
    assert types.count("country") == 5 and types.count("occupation") == 5
    assert sorted(str(task.check.kind) for task in study.check_tasks) == ["attention", "gold"]
    assert study.design.order is TaskOrder.BALANCED_LATIN_SQUARE and len(study.task_order_rows) == 12
    assert {rule.rule for rule in study.exclusions} >= {"failed_attention", "gold_ranked_first"}
    for task in study.tasks:
        assert [s.label for s in task.sources] == ["links", "generic", "aspect", "union"]
        assert task.candidates_per_source == 3 and task.rank_depth == 5 and task.nominal_candidates == 12
        assert task.label in vital_corpus[task.seed].labels(task.aspect)
    assert study.consent and study.intro


def test_the_shipped_read_more_study_is_the_default_with_wikipedias_read_more_as_a_condition(vital_corpus):
    default = check_study(load_study("vital_default"), vital_corpus)
    study = check_study(load_study("vital_read_more"), vital_corpus)
    assert [task.id for task in study.tasks] == [task.id for task in default.tasks]
    assert all([s.label for s in task.sources] == ["morelike", "generic", "aspect", "union"] for task in study.tasks)
    assert set(study.planned_effect.mean_rank) == {"morelike", "generic", "aspect", "union"}


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
        ({"name": "tiny study"}, "Study 'tiny study': 'name' must be 1-64 letters, digits, '.', '_' or '-', starting with a "
                                 "letter or digit, not "
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


def test_a_declared_design_checks_and_exclusions_are_read_and_resolved(tmp_path):
    from study.check_tasks import CheckKind
    from study.synthetic import TINY_DESIGN
    from study.task_order import TaskOrder

    study = check_study(load_study(write_tiny_study(tmp_path, **TINY_DESIGN)), tiny_corpus())
    assert study.design.order is TaskOrder.BALANCED_LATIN_SQUARE
    assert [t.id for t in study.check_tasks] == ["gold-france", "attention"]
    assert [t.id for t in study.comparison_tasks] == [t["id"] for t in TINY_STUDY["tasks"]]
    assert {t.check.kind: t.check.article for t in study.check_tasks} == {CheckKind.GOLD: "a04",
                                                                          CheckKind.ATTENTION: "a05"}
    assert [r.rule for r in study.exclusions] == ["failed_attention", "gold_ranked_first", "incomplete"]
    assert len(study.task_order_rows) == 5 * 2  # 5 tasks, odd: the square and its mirror
    assert study_from_dict(study.to_dict()) == study
    # the design is part of what participants see and the analysis reads
    plain = check_study(load_study(write_tiny_study(tmp_path)), tiny_corpus())
    assert plain.fingerprint() != study.fingerprint()


def _designed(**changes):
    from study.synthetic import TINY_DESIGN

    return {**TINY_DESIGN, **changes}


@pytest.mark.parametrize(("overrides", "message"), [
    (_designed(design={"order": "alphabetical"}), "design"),
    (_designed(exclusions=[{"rule": "sleepy"}]), "'rule' must be one of failed_attention, gold_ranked_first"),
    (_designed(exclusions=[{"rule": "incomplete"}, {"rule": "incomplete"}]), "declared twice"),
    (_designed(exclusions=[{"rule": "too_fast"}]), "seconds_per_task"),
    (_designed(exclusions=[{"rule": "too_fast", "seconds_per_task": -1}]), "above 0"),
    ({"exclusions": [{"rule": "failed_attention"}]}, "no attention task to apply it to"),
    (_designed(tasks=[{**TINY_STUDY["tasks"][0], "check": {"kind": "trick"}}]), "attention or gold"),
    (_designed(tasks=[*TINY_STUDY["tasks"], {**TINY_STUDY["tasks"][0], "id": "att",
                                              "check": {"kind": "attention", "rank_first": "Article 05"}}]),
     "the goal must name 'Article 05'"),
    (_designed(exclusions=[], tasks=[{**TINY_STUDY["tasks"][0], "check": {"kind": "gold", "decoy": "Article 04"}}]),
     "every task is a check"),
])
def test_a_bad_design_is_refused_on_load_naming_the_part(tmp_path, overrides, message):
    with pytest.raises(StudyDefinitionError, match=message):
        load_study(write_tiny_study(tmp_path, **overrides))


@pytest.mark.parametrize(("decoy", "message"), [
    ("Article 03", "shares country = France with the seed"),  # a03: France, physicist
    ("Article 00", "is the seed itself"),
    ("Article 99", "check article"),
])
def test_a_gold_decoy_related_to_its_seed_is_refused_with_suggestions(tmp_path, decoy, message):
    from study.synthetic import TINY_DESIGN

    tasks = [*TINY_DESIGN["tasks"][:-2], {**TINY_DESIGN["tasks"][-2], "check": {"kind": "gold", "decoy": decoy}}]
    study = load_study(write_tiny_study(tmp_path, **{**TINY_DESIGN, "tasks": tasks,
                                                     "exclusions": [{"rule": "gold_ranked_first"}]}))
    with pytest.raises(StudyDefinitionError, match=message):
        check_study(study, tiny_corpus())


def test_a_gold_decoy_near_its_seed_is_refused_naming_far_ones(tmp_path):
    from study.synthetic import TINY_DESIGN

    corpus = tiny_corpus()
    study = load_study(write_tiny_study(tmp_path, **TINY_DESIGN))
    near = {a.id: (0.5 if a.id == "a04" else 0.95 if a.id in ("a10", "a13") else 0.0) for a in corpus}
    with pytest.raises(StudyDefinitionError, match=r"nearer the seed .* than 50% .* far from it: 'Article 1[03]'"):
        check_study(study, corpus, remoteness=lambda seed: near)


def test_wikipedias_read_more_is_a_source_a_study_can_name_and_the_engine_proposes(tmp_path):
    from explore.neighbours import Neighbourhood
    from study.candidates import candidates_for
    from study.engine_provider import EngineProvider

    corpus = tiny_corpus()
    engine = Neighbourhood(corpus, {})
    asked = []
    study = check_study(load_study(write_tiny_study(tmp_path, tasks=_task(sources=["links", "morelike"]))), corpus,
                        resolve=asked.append)
    assert "morelike" not in [str(query) for query in asked]  # no space to resolve: the engine's text search answers
    task = study.tasks[0]
    assert [(s.label, str(s.query)) for s in task.sources] == [("links", "links"), ("morelike", "morelike")]
    proposed = EngineProvider(engine).propose(task.seed, task.sources[1], 3)
    assert proposed and task.seed not in proposed
    shown = candidates_for(task, EngineProvider(engine), corpus, shuffle_seed=1)
    assert {c.id for c in shown if "morelike" in c.sources} == set(proposed)
