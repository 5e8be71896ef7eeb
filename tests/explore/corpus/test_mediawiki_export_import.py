"""`corpus import-dump` of a MediaWiki XML export, the `pages-articles.xml.bz2` most users have (issue #54, item 3):
every article with its plain lead and links, other namespaces, redirects and empty pages skipped and counted, damage
said in words, an interrupted import resumed; the corpus searched and linked like any other."""
from __future__ import annotations

import bz2
from urllib.parse import unquote

import pytest

from explore.cli import main
from explore.corpus.dump_import import import_dump, work_dir
from explore.corpus.registry import open_corpus
from explore.errors import AspectNavError, CorpusFormatError
from tests.explore.corpus.test_dump_import import Interrupted, interrupt_after
from tests.mediawiki_dump_fixture import (ANARCHISM_WIKITEXT, EXPORT_HEAD, EXPORT_TAIL, LEAD_OF_ANARCHISM,
                                          expected_lead, page_xml, write_export)

ARTICLES = 300


@pytest.fixture(scope="module")
def export(vital_corpus, tmp_path_factory):
    """300 vital leads as enwiki pages (infobox, references, file, categories, interlanguage links), with a talk
    page, a template, a redirect and an empty page after every 50th, and enwiki's Anarchism page at the end."""
    anarchism = page_xml("Anarchism", 12, ANARCHISM_WIKITEXT)
    return write_export(tmp_path_factory.mktemp("export") / "enwiki-20240501-pages-articles.xml.bz2",
                        vital_corpus.articles[:ARTICLES], extra_pages=anarchism)


def expected_links(export, article):
    ids = {a.id: f"page-{export.page_ids[a.id]}" for a in export.articles}
    return tuple(dict.fromkeys(ids[link] for link in article.links if link in ids and link != article.id))


def test_every_article_kept_with_its_plain_lead_links_and_address(export):
    corpus, report = import_dump(export.path, "exported")
    assert len(corpus) == ARTICLES + 1
    assert [a.title for a in corpus] == [a.title for a in export.articles] + ["Anarchism"]  # dump order
    for article in export.articles:
        got = corpus[f"page-{export.page_ids[article.id]}"]
        assert got.text == expected_lead(article)
        assert sorted(got.links) == sorted(expected_links(export, article))  # in page order: a lead mention first
        assert unquote(got.url) == "https://en.wikipedia.org/wiki/" + article.title.replace(" ", "_")  # from <base>
    assert corpus["page-12"].text == LEAD_OF_ANARCHISM and corpus["page-12"].links == ()  # none of its links kept
    assert corpus.provenance.source == f"MediaWiki XML export {export.path.name}" and corpus.from_wikipedia
    assert report.links_kept == corpus.link_count > 0
    assert report.links_dropped >= ARTICLES  # every page links [[Caption link]], in no export


def test_talk_template_redirect_and_empty_pages_are_skipped_counted_and_named(export):
    _, report = import_dump(export.path, "exported")
    counts = {}
    for page in export.odd:
        counts[page.reason] = counts.get(page.reason, 0) + 1
    assert report.skipped == counts == {"NOT_ARTICLE": 12, "REDIRECT": 6, "EMPTY": 6}
    talk, template, redirect, empty = export.odd[:4]
    assert report.examples[:4] == (
        f"{export.path}, page 9 ({talk.title!r}): namespace 1, not an article (0)",
        f"{export.path}, page 10 ({template.title!r}): namespace 10, not an article (0)",
        f"{export.path}, page 11 ({redirect.title!r}): a redirect, not an article",
        f"{export.path}, page 12 ({empty.title!r}): no wikitext")
    notes = "\n".join(report.notes())
    assert "Skipped 24 records: 12 not in the article namespace, 6 a redirect page, 6 an empty page (no text)" in notes


def test_cli_imports_then_the_corpus_is_searched_and_linked_like_any_other(export, capsys):
    assert main(["corpus", "import-dump", str(export.path), "--name", "fromxml"]) == 0
    printed = capsys.readouterr().out
    assert f"Imported {ARTICLES + 1} articles into 'fromxml'" in printed and "Skipped 24 records" in printed
    assert not work_dir("fromxml").exists()
    corpus = open_corpus("fromxml")
    assert corpus.provenance.links == "hyperlinks" and sum(corpus.incoming_links.values()) == corpus.link_count
    assert corpus.search_titles("anarchism")[0].title == "Anarchism"
    assert corpus.title_search.search("Anarchis")[0].title == "Anarchism"
    assert main(["corpus", "stats", "fromxml"]) == 0
    stats = capsys.readouterr().out
    assert f"fromxml: {ARTICLES + 1} articles, {corpus.link_count} links (hyperlinks)" in stats
    assert f"source: MediaWiki XML export {export.path.name}" in stats


def test_top_is_refused_without_reading_the_export(export, monkeypatch):
    from explore.corpus import dump_import

    monkeypatch.setattr(dump_import, "open_dump", lambda path: pytest.fail("the import pass began"))
    with pytest.raises(AspectNavError, match="only a CirrusSearch dump carries; .* is MediaWiki XML export. Import it "
                                             "without --top"):
        import_dump(export.path, "top", top=10)


def test_an_interrupted_import_resumes_at_its_page_with_nothing_lost(export):
    whole, whole_report = import_dump(export.path, "whole")
    with pytest.raises(Interrupted):
        import_dump(export.path, "resumed", batch_size=40, on_checkpoint=interrupt_after(3))
    resumed, report = import_dump(export.path, "resumed", batch_size=40)
    assert report.resumed_from.startswith("page ") and resumed.content_hash == whole.content_hash
    assert report.skipped == whole_report.skipped and report.links_kept == whole_report.links_kept
    assert 0 < report.articles_this_run < len(resumed)


def test_a_truncated_export_is_said_with_where_it_ends_and_keeps_its_checkpoint(export, tmp_path, capsys):
    cut = tmp_path / "enwiki-cut-pages-articles.xml.bz2"
    data = export.path.read_bytes()
    cut.write_bytes(data[: len(data) * 2 // 3])  # a download cut short
    assert main(["corpus", "import-dump", str(cut), "--name", "cut", "--batch-size", "40"]) == 2
    err = capsys.readouterr().err
    assert "truncated or damaged at about byte" in err and "Traceback" not in err
    assert (work_dir("cut") / "checkpoint.json").exists()  # what was read is kept for when it is whole again
    plain = tmp_path / "cut.xml"
    text = bz2.decompress(data).decode()
    plain.write_text(text[: text.index("<page>", len(text) // 2) + 200])  # cut inside a page
    with pytest.raises(CorpusFormatError, match=r"the XML is cut off or malformed at line [\d,]+, column \d+ of the "
                                                r"decompressed file \(after page [\d,]+: (no element found|unclosed token)\)"):
        import_dump(plain, "cutplain")


def test_malformed_xml_and_a_wrong_root_are_refused_in_words(tmp_path, capsys):
    broken = tmp_path / "broken.xml"
    broken.write_text(EXPORT_HEAD + page_xml("A", 1, "'''A''' is a letter.").replace("</title>", "</titel>")
                      + EXPORT_TAIL)
    assert main(["corpus", "import-dump", str(broken), "--name", "broken"]) == 2
    err = capsys.readouterr().err
    assert "the XML is cut off or malformed at line" in err and "mismatched tag" in err and "Traceback" not in err
    wrong = tmp_path / "wrong.xml.bz2"
    wrong.write_bytes(bz2.compress(EXPORT_HEAD.replace("<mediawiki ", "<wikimedia ").encode() + b"</wikimedia>"))
    assert main(["corpus", "import-dump", str(wrong), "--name", "wrong"]) == 2
    assert "an XML file whose root element is <wikimedia>, not a MediaWiki export" in capsys.readouterr().err


def test_an_export_of_only_skipped_pages_is_no_corpus(tmp_path, capsys):
    path = tmp_path / "talk.xml"
    path.write_text(EXPORT_HEAD + page_xml("Talk:A", 1, "Hi.", ns=1) + page_xml("B", 2, None) + EXPORT_TAIL)
    assert main(["corpus", "import-dump", str(path), "--name", "talk"]) == 2
    err = capsys.readouterr().err
    assert "no articles (every record was skipped" in err and "namespace 1" in err and "no wikitext" in err
