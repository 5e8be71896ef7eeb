import numpy as np
import pytest

from explore.encoders import load_encoder
from training.config import TrainingConfig
from training.evaluation import AspectRetrievalEvaluator
from training.head_trainer import HeadTrainer
from training.pipeline import HEAD_DIR, prepare, train
from training.splits import split_by_article

from tests.fixture_corpora import make_corpus, make_embeddings

BOTH = ("country", "occupation")
pytestmark = pytest.mark.slow  # sentence-transformers' losses: its import alone takes seconds


@pytest.mark.parametrize("objective", ["aspectcse", "mnrl", "triplet", "aspectcse-fn"])
def test_every_objective_improves_its_aspect_over_generic(objective):
    corpus = make_corpus(people=200)  # 72 people leave ~15 test seeds: too noisy to compare objectives
    generic_embeddings = make_embeddings(corpus, signal=0.3)
    config = TrainingConfig(corpus="fixture", aspects=("occupation",), objective=objective, epochs=30,
                            batch_size=32, learning_rate=1e-3)
    run = train(config, corpus=corpus, generic=generic_embeddings, progress=False, export=False)
    embeddings = load_encoder(run.path / HEAD_DIR).project(generic_embeddings)
    evaluator = AspectRetrievalEvaluator(corpus, split_by_article(corpus), ["occupation"])
    generic, trained = evaluator(generic_embeddings), evaluator(embeddings)
    # the fixture's per-article noise caps what a head can gain on unseen articles: the gains are small but real
    assert trained["corpus/occupation/mrr@10"] > generic["corpus/occupation/mrr@10"] + 0.005
    assert trained["test/occupation/agts"] > generic["test/occupation/agts"]
    assert run.finished and run.info["seed"] == 42 and run.info["git_commit"]
    assert (run.path / "config.json").exists() and (run.path / "metrics.json").exists()


def test_saved_head_is_loaded_by_the_engine(fixture_corpus, fixture_embeddings, tmp_path):
    config = TrainingConfig(corpus="fixture", aspects=BOTH, combine="union", epochs=2, batch_size=16)
    _, rule, sampler, _ = prepare(config, fixture_corpus)
    trainer = HeadTrainer(config, rule, sampler, fixture_embeddings, tmp_path / "ckpt", progress=False)
    trainer.fit().head_.save(tmp_path / "head")
    encoder = load_encoder(tmp_path / "head")
    assert encoder.spec.kind == "head" and encoder.head.base_encoder == "minilm"
    assert np.allclose(encoder.project(fixture_embeddings), trainer.head_.transform(fixture_embeddings), atol=1e-5)


def test_interrupted_run_resumes_where_it_stopped(fixture_corpus, fixture_embeddings, monkeypatch, tmp_path):
    config = TrainingConfig(corpus="fixture", aspects=("country",), objective="aspectcse-fn", epochs=4, batch_size=16)
    split, rule, sampler, _ = prepare(config, fixture_corpus)
    straight = HeadTrainer(config, rule, sampler, fixture_embeddings, tmp_path / "a", progress=False).fit()

    calls = {"n": 0}
    original = sampler.sample

    def interrupted(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return original(*args, **kwargs)

    monkeypatch.setattr(sampler, "sample", interrupted)
    with pytest.raises(KeyboardInterrupt):
        HeadTrainer(config, rule, sampler, fixture_embeddings, tmp_path / "b", progress=False).fit()
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == ["epoch-001.pt", "epoch-002.pt"]
    resumed = HeadTrainer(config, rule, sampler, fixture_embeddings, tmp_path / "b", progress=False).fit()
    assert [h["epoch"] for h in resumed.history_] == [1, 2, 3, 4]
    assert np.allclose(resumed.head_.transform(fixture_embeddings), straight.head_.transform(fixture_embeddings),
                       atol=1e-6)


def test_finished_run_is_kept_and_changed_settings_need_a_new_name(fixture_corpus, fixture_embeddings):
    config = TrainingConfig(corpus="fixture", aspects=("country",), epochs=1, batch_size=16)
    first = train(config, corpus=fixture_corpus, generic=fixture_embeddings, progress=False, export=False)
    finished = first.info["finished"]
    assert train(config, corpus=fixture_corpus, generic=fixture_embeddings, progress=False, export=False).info["finished"] == finished
    other = TrainingConfig(corpus="fixture", aspects=("country",), epochs=2, batch_size=16, run_name=config.run_name)
    with pytest.raises(Exception, match="exists with other settings"):
        train(other, corpus=fixture_corpus, generic=fixture_embeddings, progress=False, export=False)
