import numpy as np

from training.evaluation import AspectRetrievalEvaluator
from training.report import EvaluationReport
from training.splits import split_by_article


def test_metrics_per_pool_aspect_and_combined_group(fixture_corpus, fixture_embeddings):
    split = split_by_article(fixture_corpus)
    evaluator = AspectRetrievalEvaluator(fixture_corpus, split, ["country", "occupation"], k=5,
                                         reference=fixture_embeddings, combined=[("country", "occupation")])
    metrics = evaluator(fixture_embeddings)
    assert evaluator.columns == ["country", "occupation", "any:country+occupation", "all:country+occupation"]
    for pool in ("test", "corpus"):
        for column in evaluator.columns:
            assert 0 <= metrics[f"{pool}/{column}/precision@5"] <= 1
    # every person has both aspects, so the seeds match and "any" relevance is a superset of each aspect's
    for pool in ("test", "corpus"):
        any_p = metrics[f"{pool}/any:country+occupation/precision@5"]
        assert any_p >= max(metrics[f"{pool}/country/precision@5"], metrics[f"{pool}/occupation/precision@5"])
        assert metrics[f"{pool}/all:country+occupation/precision@5"] <= metrics[f"{pool}/country/precision@5"]
    assert metrics["corpus/country/overlap@50"] == 1.0  # the reference against itself
    assert metrics[evaluator.primary_metric] == np.mean([metrics["test/country/mrr@5"],
                                                          metrics["test/occupation/mrr@5"]])


def test_report_table_is_laid_out_like_table_5(fixture_corpus, fixture_embeddings, tmp_path):
    split = split_by_article(fixture_corpus)
    evaluator = AspectRetrievalEvaluator(fixture_corpus, split, ["country", "occupation"])
    report = EvaluationReport("fixture", evaluator.columns, 10, split.describe())
    report.add("generic", evaluator(fixture_embeddings))
    report.add("noise", evaluator(np.random.default_rng(0).normal(size=fixture_embeddings.shape)), note="random")
    table = report.table("test").splitlines()
    assert table[0] == ("| Space | country P@10 | country R@10 | country MRR@10 | occupation P@10 | occupation R@10 "
                        "| occupation MRR@10 |")
    assert [line.split(" | ")[0] for line in table[2:]] == ["| generic", "| noise"]
    json_path, md_path = report.save(tmp_path / "report")
    assert "corpus pool" in md_path.read_text() and '"noise"' in json_path.read_text()
