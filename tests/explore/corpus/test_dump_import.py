import gzip
import io
import json

import pytest

from explore.cli import main
from explore.corpus.cirrus_dump import SkipReason
from explore.corpus.dump_import import import_dump, work_dir
from explore.corpus.registry import open_corpus
from tests.cirrus_dump_fixture import BAD_JSON_LINE, write_dump

ARTICLES = 300


@pytest.fixture(scope="module")
def dump(vital_corpus, tmp_path_factory):
    """300 vital leads as a real-format content dump, with 6 of each odd record."""
    return write_dump(tmp_path_factory.mktemp("dump") / "enwiki-20240501-cirrussearch-content.json.gz",
                      vital_corpus.articles[:ARTICLES])


def expected_id(dump, article):
    return dump.qids.get(article.id) or f"page-{1000 + dump.articles.index(article)}"


def expected_links(dump, article, kept):
    ids = {a.id: expected_id(dump, a) for a in kept}
    return tuple(dict.fromkeys(ids[link] for link in article.links if link in ids and link != article.id))


def line_of(path, text):
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        return next(number for number, line in enumerate(lines, start=1) if line.rstrip("\n") == text)


def test_every_article_kept_with_lead_links_aliases_and_wikidata_id(dump):
    corpus, report = import_dump(dump.path, "dumped")
    assert len(corpus) == ARTICLES
    assert [a.title for a in corpus] == [a.title for a in dump.articles]  # dump order
    for article in dump.articles:
        got = corpus[expected_id(dump, article)]
        assert got.text == article.text
        assert got.links == expected_links(dump, article, dump.articles)
        assert got.aliases == tuple(alias for alias in article.aliases if alias != article.title)
        assert got.url.startswith("https://en.wikipedia.org/wiki/")
    assert corpus.provenance.links == "hyperlinks" and corpus.from_wikipedia
    assert report.links_kept == corpus.link_count > 0
    # two per page: the namespace link and the page not in the dump, plus links to vital pages past the 300
    assert report.links_dropped >= 2 * ARTICLES


def test_odd_records_skipped_counted_and_named_by_file_and_line(dump):
    _, report = import_dump(dump.path, "dumped")
    blocks = len([i for i in range(ARTICLES) if i % 50 == 7])
    assert report.skipped == {"NOT_ARTICLE": 2 * blocks, "NO_LEAD": blocks, "REDIRECTS_ONLY": blocks,
                              "DUPLICATE": blocks, "BAD_LINE": blocks, "INVALID": blocks}
    examples = "\n".join(report.examples)
    bad_line = line_of(dump.path, BAD_JSON_LINE)
    assert f"{dump.path}, line {bad_line}: not valid JSON (" in examples
    assert f"{dump.path}, line {bad_line - 10}: namespace 1, not an article (0)" in examples
    assert "only redirects, no article text" in examples and "no opening_text" in examples
    first = dump.articles[7]
    assert f"duplicate title {first.title!r} (first on line 16)" in examples
    # the JSONL import's own words for a field of the wrong shape
    assert f"{dump.path}, line {bad_line + 2}, field 'title': must be a non-empty string" in examples
    notes = "\n".join(report.notes())
    assert f"Skipped {7 * blocks} records:" in notes and "not in the article namespace" in notes


def test_top_keeps_the_most_popular_and_only_links_between_them(dump):
    corpus, report = import_dump(dump.path, "top", top=50)
    ranked = sorted(dump.articles, key=lambda a: (-dump.popularity.get(a.id, 0.0), dump.articles.index(a)))
    kept = [a for a in dump.articles if a in ranked[:50]]
    assert [a.title for a in corpus] == [a.title for a in kept]
    for article in kept:
        assert corpus[expected_id(dump, article)].links == expected_links(dump, article, kept)
    assert report.skipped["NOT_ARTICLE"] == 12  # the whole dump's odd records are counted, not only the top's
    assert corpus.provenance.details["top"] == "50"


class Interrupted(Exception):
    pass


def interrupt_after(checkpoints):
    seen = []

    def hook(checkpoint):
        seen.append(checkpoint.line)
        if len(seen) == checkpoints:
            raise Interrupted

    return hook


@pytest.mark.parametrize("top, checkpoints", [(None, 3), (120, 2), (120, 6)])
def test_resumes_after_an_interruption_with_nothing_lost_or_counted_twice(dump, top, checkpoints):
    whole, whole_report = import_dump(dump.path, "whole", top)
    with pytest.raises(Interrupted):
        import_dump(dump.path, "resumed", top, batch_size=40, on_checkpoint=interrupt_after(checkpoints))
    assert (work_dir("resumed") / "checkpoint.json").exists()
    resumed, report = import_dump(dump.path, "resumed", top, batch_size=40)
    assert report.resumed_from.startswith("line ")
    assert [(a.id, a.links, a.aliases) for a in resumed] == [(a.id, a.links, a.aliases) for a in whole]
    assert resumed.content_hash == whole.content_hash
    assert report.skipped == whole_report.skipped and report.links_kept == whole_report.links_kept
    assert "Resumed an interrupted import at line" in "\n".join(report.notes())
    # its speed is its own: the articles it read over its time, not all of them
    assert 0 < report.articles_this_run <= len(resumed)  # all of them when killed in the --top pass
    if report.articles_this_run < len(resumed):
        assert report.speed().startswith(f"this run read {report.articles_this_run} of them in ")
    assert f"({report.articles_this_run / report.seconds:,.0f} articles/s)" in report.speed()


def test_a_checkpoint_of_another_top_starts_over(dump):
    with pytest.raises(Interrupted):
        import_dump(dump.path, "again", 100, batch_size=40, on_checkpoint=interrupt_after(2))
    corpus, report = import_dump(dump.path, "again")
    assert len(corpus) == ARTICLES and report.resumed_from == ""


def test_progress_shows_articles_per_second(dump):
    out = io.StringIO()
    import_dump(dump.path, "shown", 100, progress=True, progress_file=out)
    text = out.getvalue()
    assert "articles/s" in text and "choosing --top" in text and "importing" in text


def test_cli_imports_stores_and_tidies_up(dump, capsys):
    assert main(["corpus", "import-dump", str(dump.path), "--top", "40"]) == 0
    printed = capsys.readouterr().out
    assert "Imported 40 articles into 'enwiki'" in printed and "articles/s" in printed
    assert "Skipped 36 records: 12 not in the article namespace" in printed  # duplicates of pages past the cut are not met
    assert len(open_corpus("enwiki")) == 40
    assert not work_dir("enwiki").exists()
    assert main(["corpus", "import-dump", str(dump.path), "--top", "40"]) == 2
    assert "exists; pass --force" in capsys.readouterr().err


def test_unreadable_or_empty_dump_is_a_clear_error(tmp_path, capsys):
    assert main(["corpus", "import-dump", str(tmp_path / "missing.json.gz"), "--name", "x"]) == 2
    assert "missing.json.gz: cannot be read" in capsys.readouterr().err
    empty = tmp_path / "enwiki-empty.json.gz"
    with gzip.open(empty, "wt") as out:
        out.write(json.dumps({"index": {"_id": "1"}}) + "\n" + json.dumps({"title": "T", "namespace": 4}) + "\n")
    assert main(["corpus", "import-dump", str(empty), "--name", "x"]) == 2
    err = capsys.readouterr().err
    assert "no articles" in err and "namespace 4" in err


def test_fixture_people_round_trip_through_a_dump(tmp_path):
    """Not the vital leads alone: 120 people with descriptions and links, written as a dump and read back."""
    from tests.fixture_corpora import fixture_corpus

    people = fixture_corpus()
    dumped = write_dump(tmp_path / "people.json.gz", people.articles, odd=False)
    corpus, report = import_dump(dumped.path, "people")
    assert [a.text for a in corpus] == [a.text for a in people] and not report.skipped
    for article in people:
        assert corpus[expected_id(dumped, article)].links == expected_links(dumped, article, people.articles)


def test_a_columnar_import_stores_the_same_corpus_batch_by_batch(dump, capsys):
    """A dump past COLUMNAR_FROM articles is written columnar as it is assembled; here forced on the fixture."""
    from explore.corpus.columnar_store import ColumnarCorpus, verify_columnar
    from explore.corpus.registry import corpus_path

    whole, whole_report = import_dump(dump.path, "inmemory", 120)
    columnar, report = import_dump(dump.path, "columnar", 120, batch_size=40, columnar=True)
    assert isinstance(columnar, ColumnarCorpus) and report.stored == corpus_path("columnar")
    verify_columnar(report.stored)
    assert [(a.id, a.title, a.text, a.url, a.links, a.aliases) for a in columnar] == \
        [(a.id, a.title, a.text, a.url, a.links, a.aliases) for a in whole]
    assert columnar.content_hash == whole.content_hash and columnar.provenance.links == "hyperlinks"
    assert (report.links_kept, report.links_dropped) == (whole_report.links_kept, whole_report.links_dropped)
    assert whole_report.stored is None
    assert columnar.incoming_links == whole.incoming_links and sum(columnar.incoming_links.values()) > 0
    assert not any(work_dir("columnar").glob("*.sqlite"))  # the scratch tables are gone with their import
    # through the CLI: stored once, opened memory-mapped, the checkpoint tidied up
    assert main(["corpus", "import-dump", str(dump.path), "--top", "40", "--name", "cli-columnar", "--columnar"]) == 0
    assert "Imported 40 articles into 'cli-columnar'" in capsys.readouterr().out
    assert isinstance(open_corpus("cli-columnar"), ColumnarCorpus) and not work_dir("cli-columnar").exists()


def test_a_record_over_one_mib_is_kept_and_later_line_numbers_stay_exact(vital_corpus, tmp_path):
    """A popular article's record (a short lead, 1.2 MB of text and source text) is read for what the import keeps;
    the line numbers after it are the file's."""
    articles = vital_corpus.articles[:60]
    fixture = write_dump(tmp_path / "enwiki.json.gz", articles, long_records=(5, 7))
    with gzip.open(fixture.path, "rb") as lines:
        assert sum(len(line) > (1 << 20) for line in lines) == 2
    corpus, report = import_dump(fixture.path, "long")
    assert [a.title for a in corpus] == [a.title for a in articles]
    for index in (5, 7):
        got = corpus[expected_id(fixture, articles[index])]
        assert got.text == articles[index].text
        assert got.links == expected_links(fixture, articles[index], articles)
        assert got.aliases == tuple(alias for alias in articles[index].aliases if alias != articles[index].title)
    assert SkipReason.BAD_LINE.name in report.skipped
    bad_line = line_of(fixture.path, BAD_JSON_LINE)
    assert f"{fixture.path}, line {bad_line}: not valid JSON (" in "\n".join(report.examples)


def test_a_resumed_columnar_import_equals_an_uninterrupted_one_whatever_scratch_it_left(dump):
    """Killed mid-import, the scratch tables left behind (here overwritten with junk) are rebuilt from the checksummed
    batches: the resumed store has the same articles, links and incoming links as an uninterrupted one."""
    whole, whole_report = import_dump(dump.path, "whole-columnar", columnar=True)
    with pytest.raises(Interrupted):
        import_dump(dump.path, "killed", batch_size=40, columnar=True, on_checkpoint=interrupt_after(3))
    for name in ("seen.sqlite", "targets.sqlite"):
        (work_dir("killed") / name).write_bytes(b"junk a kill left behind")
    resumed, report = import_dump(dump.path, "killed", batch_size=40, columnar=True)
    assert report.resumed_from.startswith("line ")
    assert [(a.id, a.title, a.links, a.aliases) for a in resumed] == \
        [(a.id, a.title, a.links, a.aliases) for a in whole]
    assert resumed.content_hash == whole.content_hash
    assert list(resumed.incoming_counts) == list(whole.incoming_counts)
    assert (report.skipped, report.links_kept, report.links_dropped) == \
        (whole_report.skipped, whole_report.links_kept, whole_report.links_dropped)


_KILLABLE_IMPORT = """
import sys, time
from explore.corpus.dump_import import import_dump
import_dump(sys.argv[1], "sigkilled", batch_size=40, columnar=True, on_checkpoint=lambda checkpoint: time.sleep(0.3))
"""


def test_an_import_killed_with_sigkill_resumes_to_the_uninterrupted_store(dump):
    """A real kill (no exception handler runs: the scratch tables stay open on disk, a batch may be half written)."""
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    whole, whole_report = import_dump(dump.path, "uninterrupted", columnar=True)
    checkpoint = work_dir("sigkilled") / "checkpoint.json"
    child = subprocess.Popen([sys.executable, "-c", _KILLABLE_IMPORT, str(dump.path)],
                             cwd=Path(__file__).resolve().parents[3])
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            if checkpoint.exists() and json.loads(checkpoint.read_text()).get("parts", 0) >= 3:
                break
            time.sleep(0.05)
        assert child.poll() is None, "the import ended before it could be killed"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert (work_dir("sigkilled") / "seen.sqlite").exists()  # left open by the kill
    resumed, report = import_dump(dump.path, "sigkilled", batch_size=40, columnar=True)
    assert report.resumed_from.startswith("line ")
    assert [(a.id, a.title, a.text, a.links, a.aliases) for a in resumed] == \
        [(a.id, a.title, a.text, a.links, a.aliases) for a in whole]
    assert list(resumed.incoming_counts) == list(whole.incoming_counts)
    assert (report.skipped, report.links_kept) == (whole_report.skipped, whole_report.links_kept)
