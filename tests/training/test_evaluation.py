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


def test_the_seeds_own_aspects_column_grades_by_how_many_a_neighbour_shares(fixture_corpus, fixture_embeddings):
    from training.rankings import EmbeddingRanking

    split = split_by_article(fixture_corpus)
    evaluator = AspectRetrievalEvaluator(fixture_corpus, split, [], k=5, own=["country", "occupation"],
                                         links=EmbeddingRanking(fixture_embeddings))
    column = "own:country+occupation"
    assert evaluator.columns == [column]
    rule = evaluator.rule(column)
    labelled_in_either = evaluator.index.has("country") | evaluator.index.has("occupation")
    assert list(evaluator.seeds(rule.aspects, every=False)) == [r for r in split.test if labelled_in_either[r]]
    grades = rule.gains(split.test[:20], split.test[:20])
    assert grades.max() <= 2 and (grades == rule.grades(split.test[:20], split.test[:20])).all()
    metrics = evaluator(fixture_embeddings)
    assert 0 < metrics[f"test/{column}/ndcg@5"] <= 1
    # ranked against itself, every one of the top 5 is a "link": Links@k describes, it is no score
    assert metrics[f"corpus/{column}/links@5"] == 1.0
