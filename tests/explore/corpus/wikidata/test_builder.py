"""The `companies` recipe against local servers yields the expected articles, labels, links and noise."""
from __future__ import annotations

import json

from explore.corpus.registry import open_corpus, store_corpus
from explore.corpus.wikidata.builder import build_wikidata_corpus
from explore.corpus.wikidata.recipes import load_recipe

from .fixture_world import EXPECTED_ALIASES, EXPECTED_ASPECTS, EXPECTED_IDS, EXPECTED_LINKS


def test_companies_recipe_yields_expected_articles_labels_links_and_noise(companies, settings, services):
    corpus, summary = build_wikidata_corpus(companies, settings)

    assert [article.id for article in corpus] == EXPECTED_IDS
    assert {article.id: article.links for article in corpus} == EXPECTED_LINKS
    assert {article.id: dict(article.aspects) for article in corpus if article.aspects} == EXPECTED_ASPECTS
    # English aliases only, the article's own title left out; noise articles (Tokyo) keep theirs
    assert {article.id: article.aliases for article in corpus if article.aliases} == EXPECTED_ALIASES
    toyota, douglas = corpus["Q53268"], corpus["Q42"]
    assert toyota.title == "Toyota Motor Corporation"  # the sitelink redirects on Wikipedia
    assert toyota.text == "Toyota is a Japanese automaker."
    assert toyota.description == "Japanese automaker"
    assert toyota.url == "https://en.wikipedia.org/wiki/Toyota_Motor_Corporation"
    assert corpus["Q40993"].description == ""  # no English description
    assert douglas.aspects == {} and douglas.description == "English writer"

    assert (summary.items_found, summary.with_article, summary.missing_on_wikipedia) == (9, 7, 1)
    assert summary.class_articles == 6
    assert summary.aspect_articles == {"country": 6, "industry": 5}
    assert (summary.noise_added, summary.noise_rejected_in_class) == (4, 1)
    assert summary.links == sum(len(links) for links in EXPECTED_LINKS.values())

    provenance = corpus.provenance
    assert provenance.source == "wikidata" and provenance.links == "hyperlinks" and provenance.date
    assert provenance.details["endpoint"] == services.endpoint
    assert provenance.details["recipe"] == "companies"
    assert json.loads(provenance.details["recipe_json"])["class_qid"] == "Q4830453"


def test_built_corpus_round_trips_through_the_store(companies, settings, services):
    corpus, _ = build_wikidata_corpus(companies, settings)
    store_corpus(corpus)
    reloaded = open_corpus("companies")
    assert [a.id for a in reloaded] == EXPECTED_IDS
    assert reloaded["Q95"].links == EXPECTED_LINKS["Q95"]
    assert reloaded["Q95"].aliases == EXPECTED_ALIASES["Q95"]
    assert reloaded.find("Bayerische Motoren Werke").id == "Q26678"  # an alias finds its article
    assert reloaded.title_search.search("edo")[0].alias == "Edo"
    assert reloaded.provenance.details["recipe"] == "companies"


def test_a_second_build_is_served_entirely_from_the_cache(companies, settings, services):
    first, _ = build_wikidata_corpus(companies, settings)
    served = sum(services.sparql.served.values()) + sum(services.wiki.served.values())
    second, summary = build_wikidata_corpus(companies, settings)
    assert [a.id for a in second] == [a.id for a in first]
    assert sum(services.sparql.served.values()) + sum(services.wiki.served.values()) == served
    assert summary.fetched == 0 and summary.from_cache > 0


def test_every_request_identifies_itself_and_respects_batch_limits(companies, settings, services):
    build_wikidata_corpus(companies, settings)
    assert set(services.sparql.agents) == set(services.wiki.agents) == {settings.etiquette.user_agent}
    assert all(count == 1 for count in services.wiki.served.values())


def test_user_recipe_file_without_subclasses_keeps_direct_instances_only(tmp_path, settings, services):
    recipe_file = tmp_path / "direct.json"
    recipe_file.write_text(json.dumps({
        "name": "direct-businesses", "class": "Q4830453", "subclasses": False,
        "aspects": {"P17": "country"}, "limit": 10, "noise": 0,
    }))
    corpus, summary = build_wikidata_corpus(load_recipe(recipe_file), settings)
    assert [a.id for a in corpus] == ["Q40993"]
    assert corpus["Q40993"].aspects == {"country": ("Germany", "Q999001")}
    assert corpus["Q40993"].links == ()  # BMW is not in this corpus
    assert summary.noise_added == 0 and corpus.name == "direct-businesses"


def test_members_are_paged_so_no_query_asks_for_the_whole_class(companies, settings, services):
    settings.members_per_query = 4
    corpus, summary = build_wikidata_corpus(companies.with_overrides(limit=50, noise=0), settings)
    assert {a.id for a in corpus} == {"Q95", "Q312", "Q9584", "Q26678", "Q40993", "Q53268", "Q1000003"}
    assert (summary.items_found, summary.with_article) == (9, 8)
    member_queries = [key for key in services.sparql.served if "OFFSET" in key]
    assert len(member_queries) == 3 and all("LIMIT+4+" in key for key in member_queries)
