import pytest

from explore.corpus.model import Corpus, Provenance
from explore.errors import AmbiguousTitleError, UnknownArticleError


def test_find_by_title_case_insensitive_and_by_id(small_corpus):
    assert small_corpus.find("marie curie").id == "curie"
    assert small_corpus.find("  Marie Curie ").id == "curie"
    assert small_corpus.find("radium").id == "radium"
    assert small_corpus.find("mercury-god").title == "Mercury"


def test_shared_title_asks_for_an_id(small_corpus):
    with pytest.raises(AmbiguousTitleError) as err:
        small_corpus.find("Mercury")
    assert err.value.ids == ["mercury-planet", "mercury-god"]
    assert "mercury-god" in str(err.value)


def test_unknown_title_suggests_closest(small_corpus):
    with pytest.raises(UnknownArticleError) as err:
        small_corpus.find("Marie Curi")
    assert err.value.suggestions[0] == "Marie Curie"
    assert "Marie Curie" in str(err.value)


@pytest.mark.parametrize("query", ["", "   ", None])
def test_empty_query_is_refused(small_corpus, query):
    with pytest.raises(UnknownArticleError):
        small_corpus.find(query)


def test_shared_labels_per_aspect(small_corpus):
    curie, pierre = small_corpus["curie"], small_corpus["pierre"]
    assert curie.shared_labels(pierre) == {"country": ["France"], "occupation": ["physicist"]}
    assert curie.shared_labels(small_corpus["radium"]) == {}


def test_stats_counts_labels_and_coverage(small_corpus):
    stats = small_corpus.stats()
    assert stats["articles"] == 5 and stats["links"] == 3
    assert stats["aspects"]["country"]["coverage"] == 0.4
    assert stats["aspects"]["country"]["top"][0] == ("France", 2)
    assert set(stats["aspects"]) == {"country", "occupation", "topic"}


def test_duplicate_ids_are_refused(small_corpus):
    with pytest.raises(ValueError, match="duplicate article id 'curie'"):
        Corpus("dup", small_corpus.articles + [small_corpus["curie"]], Provenance("t", "d"))


def test_content_hash_follows_text_not_labels(small_corpus):
    from dataclasses import replace

    relabelled = [replace(a, aspects={}) for a in small_corpus]
    edited = [replace(a, text=a.text + "!") if a.id == "radium" else a for a in small_corpus]
    assert Corpus("x", relabelled, small_corpus.provenance).content_hash == small_corpus.content_hash
    assert Corpus("x", edited, small_corpus.provenance).content_hash != small_corpus.content_hash


def test_search_titles_prefers_prefix(small_corpus):
    assert [a.id for a in small_corpus.search_titles("mer")] == ["mercury-planet", "mercury-god"]
    assert [a.id for a in small_corpus.search_titles("curie")] == ["curie", "pierre"]
    assert small_corpus.search_titles("  ") == []
    assert [a.id for a in small_corpus.search_titles("pi")][0] == "pierre"


def test_inferred_labels_count_only_when_asked_and_are_marked():
    from explore.corpus.model import Article

    article = Article("x", "X", "text", aspects={"country": ("France",)},
                      inferred={"topic": ("People",), "country": ("Spain",)})
    assert article.labels("topic") == ()
    assert article.labels("topic", inferred=True) == ("People",)
    assert article.labels("country", inferred=True) == ("France",)  # an own label always wins
    assert article.has_aspect("topic") and not article.has_aspect("topic", inferred=False)
    assert article.is_inferred("topic") and not article.is_inferred("country")
    assert article.all_labels() == {"country": ("France",), "topic": ("People",)}
    assert article.all_labels(inferred=False) == {"country": ("France",)}
