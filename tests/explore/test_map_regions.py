"""Named regions: k-means on a 2-D layout, each cluster named by its most characteristic labels or title words
(c-TF-IDF), on the fixture corpora (not only vital)."""
import numpy as np
import pytest

from explore.corpus.model import Article
from explore.map_regions import article_terms, map_regions, name_clusters, region_count
from tests.fixture_corpora import aspect_corpus, fixture_corpus


def test_article_terms_are_its_labels_then_its_title_words_without_stop_words():
    article = Article("x", "The History of Paris", "", aspects={"country": ("France",), "topic": ("History",)})
    assert article_terms(article) == ["France", "History", "history", "paris"]


def test_a_term_every_cluster_shares_names_none_and_a_rare_one_is_left_out():
    documents = [["France", "painter", "common"]] * 10 + [["Japan", "physicist", "common"]] * 10 + [["Japan", "odd"]]
    clusters = np.array([0] * 10 + [1] * 11)
    names = name_clusters(documents, clusters, 2, terms=2, min_share=0.2)
    assert set(names[0]) == {"France", "painter"} and set(names[1]) == {"Japan", "physicist"}
    assert name_clusters(documents, clusters, 2, terms=3, min_share=0.2)[0][2] == "common"  # last, not first
    assert "odd" not in name_clusters(documents, clusters, 2, terms=4, min_share=0.2)[1]  # 1 in 11: under min_share


def test_regions_of_the_fixture_corpus_follow_the_layout_and_are_named_by_their_country():
    """Lay the 120 fixture people out as one blob per country: each region is then named by that country."""
    corpus = fixture_corpus()
    rng = np.random.default_rng(0)
    centres = {"France": (-30, -30), "Japan": (30, -30), "Brazil": (-30, 30), "Egypt": (30, 30), "Poland": (0, 0)}
    labelled = [a for a in corpus if a.labels("country")]
    coords = np.array([np.array(centres[a.labels("country")[0]]) + rng.normal(scale=3, size=2) for a in labelled])
    regions = map_regions(coords, [article_terms(a) for a in labelled], n_regions=5)
    assert len(regions) == 5 and sum(len(r.rows) for r in regions) == len(labelled)
    for region in regions:
        country = labelled[region.rows[0]].labels("country")[0]
        assert region.terms[0] == country and region.name.startswith(country)
        assert np.hypot(region.x - centres[country][0], region.y - centres[country][1]) < 10  # on its blob


def test_region_count_grows_with_the_map_and_stays_readable():
    assert region_count(12) == 3 and region_count(120) == 3 and region_count(10_033) == 12
    assert region_count(2_000) == 6


def test_a_tiny_corpus_gets_regions_and_mismatched_inputs_are_refused():
    corpus = aspect_corpus()
    coords = np.random.default_rng(1).normal(size=(len(corpus), 2))
    regions = map_regions(coords, [article_terms(a) for a in corpus], n_regions=2)
    assert 1 <= len(regions) <= 2 and all(r.terms for r in regions)
    assert map_regions(coords[:1], [["x"]]) == []  # one point: nothing to split
    with pytest.raises(ValueError, match="one each"):
        map_regions(coords, [["x"]])
