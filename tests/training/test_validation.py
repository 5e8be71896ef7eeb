import pytest

from explore.corpus.model import Article, Corpus, Provenance
from training.config import TrainingConfig
from training.pipeline import train
from training.runs import runs_dir
from training.validation import TrainingInputError


def corpus_of(labels: list[tuple[str, ...]]) -> Corpus:
    articles = [Article(f"a{i}", f"A{i}", "text", aspects={"country": ls} if ls else {}) for i, ls in enumerate(labels)]
    return Corpus("tiny", articles, Provenance(source="test", date="2026-01-01"))


def expect_error(config, corpus, match):
    with pytest.raises(TrainingInputError, match=match):
        train(config, corpus=corpus, generic=None, progress=False)
    assert not runs_dir().exists(), "nothing may be written before the input is checked"


def test_unknown_aspect_names_the_known_ones(fixture_corpus):
    expect_error(TrainingConfig(corpus="fixture", aspects=("colour",)), fixture_corpus, "no aspect 'colour'.*country")


def test_aspect_with_fewer_than_two_labels():
    corpus = corpus_of([("France",)] * 10)
    expect_error(TrainingConfig(aspects=("country",)), corpus, "1 label")


def test_label_with_a_single_article_unless_dropped(fixture_corpus):
    corpus = corpus_of([("France",)] * 5 + [("Japan",)] * 5 + [("Peru",)])
    expect_error(TrainingConfig(aspects=("country",)), corpus, "single article \\(Peru\\).*--drop-labels-below 2")


def test_empty_split():
    corpus = corpus_of([("France",)] * 3 + [("Japan",)] * 3 + [()] * 40)
    expect_error(TrainingConfig(aspects=("country",), test_fraction=0.02), corpus, "test split.*no article labelled")


def test_a_split_labelled_only_with_dropped_labels_counts_as_unlabelled():
    corpus = corpus_of([("France",)] * 3 + [("Japan",)] * 3 + [(f"Land {i}",) for i in range(40)])
    expect_error(TrainingConfig(aspects=("country",), test_fraction=0.02, drop_labels_below=2), corpus,
                 "test split.*no article labelled")


def test_combine_needs_matching_aspect_count(fixture_corpus):
    expect_error(TrainingConfig(aspects=("country",), combine="union"), fixture_corpus, "at least two aspects")
    expect_error(TrainingConfig(aspects=("country", "occupation")), fixture_corpus, "one aspect per run")


@pytest.mark.parametrize("changes, match", [
    ({"objective": "simcse"}, "Unknown objective 'simcse'; choose one of aspectcse, mnrl, triplet, aspectcse-fn"),
    ({"mode": "fast"}, "Unknown mode 'fast'; choose one of head, full"),
    ({"test_fraction": 1.0}, "test_fraction must be less than 1; got 1.0"),
    ({"temperature": 0.0}, "temperature must be greater than 0; got 0.0"),
    ({"epochs": 0}, "epochs must be greater than or equal to 1; got 0"),
    ({"unlabelled_negatives": 1.5}, "unlabelled_negatives must be less than or equal to 1; got 1.5"),
    ({"seed": "7"}, "seed must be a valid integer; got '7'"),
])
def test_a_bad_setting_names_the_field_and_what_it_allows(fixture_corpus, changes, match):
    expect_error(TrainingConfig(aspects=("country",), **changes), fixture_corpus, match)
