"""`corpus import-dump` of WikiExtractor output, its <doc> files and its --json lines (issue #54, item 3): revid is
read past, an empty page is skipped and counted (it stopped the whole import before), a cut-off block or a bad
line is named by file and line; the corpus is the same whichever of the two outputs it came from."""
from __future__ import annotations

import bz2
import json

import pytest

from explore.cli import main
from explore.corpus.dump_import import import_dump
from explore.corpus.registry import open_corpus
from tests.explore.corpus.test_dump_import import Interrupted, interrupt_after
from tests.mediawiki_dump_fixture import write_wikiextractor_docs, write_wikiextractor_json

ARTICLES = 200


@pytest.fixture(scope="module")
def articles(vital_corpus):
    return vital_corpus.articles[:ARTICLES]


@pytest.fixture(scope="module")
def docs(articles, tmp_path_factory):
    """`WikiExtractor.py --links` output, bz2'd as `--compress` writes it, with 4 empty pages."""
    path = tmp_path_factory.mktemp("extracted") / "wiki_00.bz2"
    return path, write_wikiextractor_docs(path, articles)


def expected_links(articles, article):
    kept = {a.id for a in articles}
    return sorted(dict.fromkeys(f"page-{1000 + articles.index(a)}" for a in articles
                                if a.id in article.links and a.id in kept and a.id != article.id))


def test_doc_files_import_every_page_with_its_lead_links_and_address(articles, docs):
    path, empty = docs
    corpus, report = import_dump(path, "docs")
    assert [a.title for a in corpus] == [a.title for a in articles]
    for index, article in enumerate(articles):
        got = corpus[f"page-{1000 + index}"]
        assert got.text == " ".join(article.text.split())  # the lead paragraph, not the sections after it
        assert sorted(got.links) == expected_links(articles, article)
        assert got.url == f"https://en.wikipedia.org/wiki?curid={1000 + index}"
    assert corpus.provenance.source == "WikiExtractor output wiki_00.bz2" and corpus.link_count > 0
    assert report.skipped == {"EMPTY": len(empty)} and len(empty) == 4
    header = next(number for number, line in enumerate(bz2.decompress(path.read_bytes()).decode().splitlines(), 1)
                  if line.endswith(f'title="{empty[0]}">'))
    assert report.examples[0] == f"{path}, line {header} ({empty[0]!r}): no text"


def test_json_lines_with_revid_import_the_same_corpus_and_skip_empty_pages(articles, docs, tmp_path, capsys):
    path = tmp_path / "wiki_00"
    empty = write_wikiextractor_json(path, articles)
    assert '"revid": "1200001000"' in path.read_text().splitlines()[0]
    assert main(["corpus", "import-dump", str(path), "--name", "extracted"]) == 0
    printed = capsys.readouterr().out
    assert f"Imported {ARTICLES} articles into 'extracted'" in printed
    assert f"Skipped 4 records: 4 an empty page (no text). First:\n  {path}, line 9 ({empty[0]!r}): no text" in printed
    from_docs, _ = import_dump(docs[0], "docs")
    stored = open_corpus("extracted")
    assert [(a.id, a.title, a.text, a.links) for a in stored] == [(a.id, a.title, a.text, a.links) for a in from_docs]
    assert stored.search_titles(articles[3].title)[0].title == articles[3].title


def test_without_links_the_corpus_says_it_has_none(articles, tmp_path):
    path = tmp_path / "wiki_01"
    write_wikiextractor_docs(path, articles[:30], links=False)
    corpus, report = import_dump(path, "nolinks")
    assert len(corpus) == 30 and corpus.link_count == 0 and corpus.provenance.links == "none"
    assert report.links_kept == report.links_dropped == 0


def test_an_interrupted_import_resumes_with_nothing_lost(docs):
    whole, _ = import_dump(docs[0], "whole")
    with pytest.raises(Interrupted):
        import_dump(docs[0], "resumed", batch_size=30, on_checkpoint=interrupt_after(3))
    resumed, report = import_dump(docs[0], "resumed", batch_size=30)
    assert report.resumed_from.startswith("line ") and resumed.content_hash == whole.content_hash


def test_cut_off_blocks_stray_text_and_bad_lines_are_skipped_and_named(tmp_path):
    doc = '<doc id="{0}" url="https://en.wikipedia.org/wiki?curid={0}" title="{1}">\n{1}\n\n{1} is a thing.\n'
    path = tmp_path / "wiki_02"
    path.write_text(doc.format(1, "Alpha") + "</doc>\n" + "stray words\n" + doc.format(2, "Beta")  # no </doc>
                    + doc.format(3, "Gamma") + "</doc>\n" + doc.format(4, "Delta"))  # the file ends inside a block
    corpus, report = import_dump(path, "cut")
    assert [a.title for a in corpus] == ["Alpha", "Gamma"]
    assert report.skipped == {"BAD_LINE": 3}
    assert report.examples == (f"{path}, line 6: text outside a <doc> ... </doc> block ('stray words')",
                               f"{path}, line 7: a <doc> block cut off (no </doc> before line 11)",
                               f"{path}, line 16: a <doc> block cut off (the file ends before its </doc>)")
    lines = tmp_path / "wiki_03"
    good = {"id": "1", "revid": "2", "url": "https://en.wikipedia.org/wiki?curid=1", "title": "A", "text": "A is."}
    lines.write_text("\n".join([json.dumps(good), '{"id": "2", "revid": "3", "url": "', json.dumps({**good, "id": "3",
                                "title": "B", "text": 7}), json.dumps({**good, "id": "4", "title": ""})]) + "\n")
    corpus, report = import_dump(lines, "lines")
    assert [a.title for a in corpus] == ["A"] and report.skipped == {"BAD_LINE": 1, "INVALID": 2}
    assert f"{lines}, line 2: not valid JSON" in report.examples[0]
    assert report.examples[1] == f"{lines}, line 3 ('B'), field 'text': must be a string, not int"
    assert report.examples[2].startswith(f"{lines}, line 4, field 'title': ") and "non-empty string" in report.examples[2]


def test_a_file_of_empty_pages_is_no_corpus_and_a_truncated_one_is_damage(tmp_path, capsys):
    empty = tmp_path / "wiki_04.bz2"
    empty.write_bytes(bz2.compress(b'<doc id="1" url="https://en.wikipedia.org/wiki?curid=1" title="A">\nA\n\n\n</doc>\n'))
    assert main(["corpus", "import-dump", str(empty), "--name", "empty"]) == 2
    assert "no articles (every record was skipped" in capsys.readouterr().err
    cut = tmp_path / "wiki_05.bz2"
    write_wikiextractor_docs(cut, [a for a in open_corpus("vital").articles[:200]])
    cut.write_bytes(cut.read_bytes()[:-200])
    assert main(["corpus", "import-dump", str(cut), "--name", "cutoff"]) == 2
    err = capsys.readouterr().err
    assert "truncated or damaged at about byte" in err and "Traceback" not in err
