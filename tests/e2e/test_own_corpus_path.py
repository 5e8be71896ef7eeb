"""A researcher's own corpus, end to end through the commands docs/own_corpus.md gives: import JSONL → build the
generic space → train single and multi-aspect spaces → evaluate with the links row → explore. The corpus is made
here: musicians with two aspects (region, instrument), texts that say both, and real links between them."""
import json

import numpy as np
import pytest

from aspectnav_cli import main

pytestmark = pytest.mark.slow  # MiniLM encodes the corpus; four heads train

REGIONS = ["Andalusia", "Bavaria", "Bengal", "Patagonia", "Sicily", "Yunnan"]
INSTRUMENTS = ["violin", "piano", "sitar", "bandoneon", "oud"]
STYLES = ["folk songs", "sacred music", "dance tunes", "film scores", "improvised suites", "court music"]


def write_corpus(path, n=150, seed=0):
    rng = np.random.default_rng(seed)
    people = []
    for i in range(n):
        region, instrument = REGIONS[i % len(REGIONS)], INSTRUMENTS[(i // 2) % len(INSTRUMENTS)]
        style = STYLES[rng.integers(len(STYLES))]
        text = (f"Musician {i} is a {instrument} player from {region}, known for {style}. Born in {1900 + i} in "
                f"{region}, they studied the {instrument} and recorded {rng.integers(2, 40)} albums of {style}.")
        people.append({"id": f"m{i}", "title": f"Musician {i}", "text": text, "description": f"{region} {instrument}ist",
                       "url": f"https://example.org/wiki/Musician_{i}",
                       "aspects": {"region": [region], "instrument": [instrument]}})
    for i, person in enumerate(people):  # teachers and partners: mostly same region or instrument, some random
        same = [j for j in range(n) if j != i and (people[j]["aspects"]["region"] == person["aspects"]["region"]
                                                   or people[j]["aspects"]["instrument"] == person["aspects"]["instrument"])]
        person["links"] = [f"m{j}" for j in rng.choice(same, 3, replace=False)] + [f"m{rng.integers(n)}"]
    path.write_text("\n".join(json.dumps(p) for p in people) + "\n")


def test_import_build_train_evaluate_explore(tmp_path, capsys):
    corpus_file = tmp_path / "musicians.jsonl"
    write_corpus(corpus_file)
    assert main(["corpus", "import", str(corpus_file), "--name", "musicians"]) == 0
    assert "Imported 150 articles into 'musicians'" in capsys.readouterr().out
    assert main(["spaces", "build", "--corpus", "musicians"]) == 0
    common = ["--corpus", "musicians", "--quiet"]
    assert main(["train", *common, "--aspects", "region,instrument"]) == 0
    assert main(["train", *common, "--aspects", "region,instrument", "--combine", "graded", "--objective", "graded",
                 "--head", "mlp", "--triplets-per-anchor", "2", "--space-name", "union"]) == 0
    trained = capsys.readouterr().out
    assert "space region:" in trained and "space instrument:" in trained and "space union:" in trained

    report = tmp_path / "musicians-report"
    assert main(["evaluate", "--corpus", "musicians", "--aspects", "region,instrument", "--combined",
                 "region+instrument", "--output", str(report),
                 "--spaces", "links,generic,region,instrument,union"]) == 0
    table = capsys.readouterr().out
    figures = json.loads(report.with_suffix(".json").read_text())["spaces"]
    assert list(figures) == ["links", "generic", "region", "instrument", "union"] and "| links |" in table
    for aspect in ("region", "instrument"):  # each single space finds its aspect better than generic does
        assert figures[aspect][f"corpus/{aspect}/mrr@10"] > figures["generic"][f"corpus/{aspect}/mrr@10"]
    assert figures["union"]["corpus/any:region+instrument/ndcg@10"] > \
        figures["generic"]["corpus/any:region+instrument/ndcg@10"]
    assert figures["links"]["corpus/any:region+instrument/precision@10"] > 0.2  # the links mostly share an aspect

    assert main(["neighbours", "Musician 7", "--corpus", "musicians", "--kind", "all", "-k", "3"]) == 0
    shown = capsys.readouterr().out
    for heading in ("links", "generic", "region", "instrument", "union"):
        assert heading in shown
