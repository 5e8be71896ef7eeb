"""Issue #25 item 3: `training train --run-name ../../../x` wrote outside the data home (and the space pointed
there), and a name with a trailing newline passed the old `re.match(...$)`. Every entry point that takes a
corpus, space, run, aspect or study name refuses what explore/names.py does not allow, naming it."""
from __future__ import annotations

import json

import pytest

from explore.corpus.registry import store_corpus
from explore.errors import AspectNavError
from tests.fixture_corpora import fixture_corpus

BAD = ["../x", "a/b", "x\n", "", "../../../x", ".hidden", "a b", "x;y"]
GOOD = ["fixture2", "my-corpus_1.2", "A"]


def refusal(run, capsys) -> str:
    """What an entry point said when it refused: a CLI's exit 2 (argparse or AspectNavError) or the error."""
    try:
        code = run()
    except SystemExit as exc:
        code = exc.code
    except AspectNavError as exc:
        return str(exc)
    assert code == 2
    return capsys.readouterr().err


def cli_entry_points(tmp_path, name: str) -> dict:
    """Each CLI command that takes a name, with `name` in that place and everything else ordinary."""
    from explore.cli import main as explore_main
    from training.cli import main as training_main

    article = {"id": "a", "title": "A", "text": "A text.", "aspects": {"era": ["early"]}}
    jsonl = tmp_path / "c.jsonl"
    jsonl.write_text(json.dumps(article) + "\n")
    labels = tmp_path / "labels.csv"
    labels.write_text("id,label\np0,x\n")
    train = ["train", "--corpus", "fixture", "--aspects", "country", "--quiet"]
    return {
        "corpus import --name": lambda: explore_main(["corpus", "import", str(jsonl), "--name", name]),
        "corpus build wikidata --name": lambda: explore_main(["corpus", "build", "wikidata", "--recipe", "companies",
                                                              "--name", name]),
        "corpus attach-aspect NAME": lambda: explore_main(["corpus", "attach-aspect", name, "--aspect", "era",
                                                           "--file", str(labels)]),
        "corpus attach-aspect --aspect": lambda: explore_main(["corpus", "attach-aspect", "fixture", "--aspect", name,
                                                               "--file", str(labels)]),
        "spaces build --corpus": lambda: explore_main(["spaces", "build", "--corpus", name]),
        "spaces build --name": lambda: explore_main(["spaces", "build", "--corpus", "fixture", "--name", name]),
        "training train --corpus": lambda: training_main(["train", "--corpus", name, "--aspects", "country"]),
        "training train --run-name": lambda: training_main([*train, "--run-name", name]),
        "training train --space-name": lambda: training_main([*train, "--space-name", name]),
        "training train --aspects": lambda: training_main(["train", "--corpus", "fixture", "--aspects", name]),
    }


@pytest.mark.parametrize("bad", BAD)
def test_every_cli_entry_point_refuses_a_bad_name(bad, isolated_home, tmp_path, capsys):
    store_corpus(fixture_corpus())
    for where, run in cli_entry_points(tmp_path, bad).items():
        said = refusal(run, capsys)
        assert "name" in said and repr(bad) in said and "letters, digits" in said, (where, said)
    assert not (isolated_home.parent / "x").exists() and not list((isolated_home / "training").rglob("*"))


@pytest.mark.parametrize("bad", BAD)
def test_every_name_taking_function_refuses_a_bad_name(bad, isolated_home, tmp_path):
    """What the app and the CLI both reach: training configs (also the app's train form), the study file,
    its database and cookie, the corpus and space registries, an attached aspect."""
    from app_views.participant_cookie import cookie_name
    from explore.corpus.aspect_import import attach_aspect
    from explore.corpus.registry import open_corpus
    from explore.spaces.registry import SpaceRegistry
    from study.definition import StudyDefinitionError, parse_study
    from study.store import open_store
    from training.config import TrainingConfig
    from training.runs import Run
    from training.validation import check_config

    corpus = fixture_corpus()
    registry = SpaceRegistry(corpus, home=tmp_path / "spaces", shipped=tmp_path / "shipped")
    labels = tmp_path / "labels.csv"
    labels.write_text("id,label\np0,x\n")
    calls = {
        "config corpus": lambda: check_config(TrainingConfig(corpus=bad, aspects=("country",))),
        "config aspects": lambda: check_config(TrainingConfig(aspects=(bad,), space_name="ok", run_name="ok")),
        "config space": lambda: check_config(TrainingConfig(aspects=("country",), space_name=bad or "\n")),
        "config run": lambda: check_config(TrainingConfig(aspects=("country",), run_name=bad or "\n")),
        "run": lambda: Run.named(bad),
        "open corpus": lambda: open_corpus(bad),
        "space": lambda: list(registry.stored(bad)),
        "aspect": lambda: attach_aspect(corpus, bad, labels),
        "study database": lambda: open_store(bad),
        "study cookie": lambda: cookie_name(bad),
    }
    for where, call in calls.items():
        with pytest.raises(AspectNavError, match="[Ii]nvalid .*name.*letters, digits"):
            call()
    with pytest.raises(StudyDefinitionError, match="'name' (must be|is required:) 1-64 letters, digits"):
        parse_study({"name": bad}, default_name=bad)


@pytest.mark.parametrize("good", GOOD)
def test_ordinary_names_are_accepted_everywhere(good, isolated_home):
    from app_views.participant_cookie import cookie_name
    from explore.names import check_name, name_argument
    from study.store import default_database_path
    from training.config import TrainingConfig
    from training.runs import Run

    assert check_name(good, "corpus") == name_argument("space")(good) == good
    config = TrainingConfig(corpus=good, aspects=(good,), space_name=good, run_name=good)
    assert (config.space_name, config.run_name) == (good, good)
    assert Run.named(good).path.name == good and default_database_path(good).name == f"{good}.sqlite"
    assert cookie_name(good).endswith(good)
