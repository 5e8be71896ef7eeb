"""Attaching an aspect from id,label rows: everything checked first, nothing lost on a bad file."""
import json

import pytest

from explore.cli import main
from explore.corpus.aspect_import import attach_aspect
from explore.corpus.registry import open_corpus, store_corpus
from explore.errors import CorpusFormatError, InvalidNameError
from tests.fixture_corpora import fixture_corpus


def test_csv_rows_label_the_new_aspect_and_leave_the_content_hash_alone(tmp_path):
    corpus = fixture_corpus()
    path = tmp_path / "era.csv"
    path.write_text("id,label\np0,baroque\np1,baroque\np1,modern\np2, modern \np1,modern\n\n")
    attached = attach_aspect(corpus, "era", path)
    assert attached.corpus["p1"].labels("era") == ("baroque", "modern")
    assert attached.corpus["p2"].labels("era") == ("modern",) and attached.corpus["p3"].labels("era") == ()
    assert attached.corpus["p1"].labels("country") == corpus["p1"].labels("country")
    assert (attached.articles, attached.labels, attached.duplicate_rows) == (3, 2, 1)
    assert attached.corpus.content_hash == corpus.content_hash  # the spaces stay valid
    assert "era" in attached.corpus.aspect_names and "era" not in corpus.aspect_names
    assert attached.summary() == ("Aspect 'era': 2 label(s) on 3 of 120 articles of 'fixture'; 1 repeated row(s) "
                                  "counted once.")


def test_jsonl_rows_work_too(tmp_path):
    path = tmp_path / "era.jsonl"
    path.write_text("\n".join(json.dumps({"id": f"p{i}", "label": "early" if i < 5 else "late"}) for i in range(10)))
    assert attach_aspect(fixture_corpus(), "era", path).corpus.label_counts("era") == {"early": 5, "late": 5}


@pytest.mark.parametrize("name, text, message", [
    ("a.csv", "article,label\np0,x\n", "header must be exactly 'id,label'"),
    ("a.csv", "id,label\np0,x,extra\n", "line 2: expected 2 fields"),
    ("a.csv", "id,label\np0,\n", "line 2: field 'label': required, must be a non-empty string"),
    ("a.csv", "id,label\n", "no rows"),
    ("a.csv", "id,label\np0,x\nnope,y\np1,x\nmissing,z\n", "2 row(s) name no article of corpus 'fixture': 'nope' "
                                                           "(line 3), 'missing' (line 5)"),
    ("a.csv", 'id,label\np0,"land9\np1,land8\n', "line 2: a quote opened here is never closed on that line"),
    ("a.csv", 'id,label\np0,x\n\np1,"land9\np2,land8\np3,"x"\n', "line 4: a quote opened here is never closed"),
    ("a.csv", 'id,label\np0,x\np1,"land9\r\np2,land8', "line 3: a quote opened here is never closed"),
    # issue #49 item 1: the same quote on the last line (with or without its line end) is refused the same way
    ("a.csv", 'id,label\np0,x\np1,"green\n', "line 3: a quote opened here is never closed"),
    ("a.csv", 'id,label\np0,x\np1,"green', "line 3: a quote opened here is never closed"),
    ("a.csv", 'id,label\np0,"green', "line 2: a quote opened here is never closed"),
    ("a.jsonl", '{"id": "p0", "label": "x"}\n{"id": "p1"', "line 2: not valid JSON"),
    ("a.jsonl", '{"id": "p0", "label": 3}\n', "field 'label': must be a non-empty string"),
    ("a.jsonl", '{"id": "p0", "label": "x", "extra": 1}\n', "field 'extra': unknown field; allowed: id, label"),
    ("a.jsonl", '["p0", "x"]\n', "expected an object with 'id' and 'label'"),
])
def test_a_bad_file_is_refused_by_line(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(CorpusFormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        attach_aspect(fixture_corpus(), "era", path)


def test_an_existing_aspect_needs_replace_and_a_bad_name_is_refused(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("id,label\np0,Atlantis\np1,Atlantis\n")
    with pytest.raises(CorpusFormatError, match="already has aspect 'country'; pass --replace"):
        attach_aspect(fixture_corpus(), "Country", path)
    replaced = attach_aspect(fixture_corpus(), "country", path, replace_existing=True).corpus
    assert replaced.label_counts("country") == {"Atlantis": 2}
    for bad in ("", "a,b", "x:y", "a" * 65):
        with pytest.raises(InvalidNameError, match="Invalid aspect name"):
            attach_aspect(fixture_corpus(), bad, path)


def test_the_cli_stores_the_corpus_only_when_every_row_is_good(tmp_path, capsys):
    store_corpus(fixture_corpus())
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text("id,label\n" + "".join(f"p{i},{'early' if i % 2 else 'late'}\n" for i in range(40)))
    bad.write_text("id,label\np0,x\nghost,y\n")
    assert main(["corpus", "attach-aspect", "fixture", "--aspect", "era", "--file", str(bad)]) == 2
    assert "'ghost' (line 3)" in capsys.readouterr().err
    assert "era" not in open_corpus("fixture").aspect_names
    assert main(["corpus", "attach-aspect", "fixture", "--aspect", "era", "--file", str(good)]) == 0
    assert "Aspect 'era': 2 label(s) on 40 of 120 articles" in capsys.readouterr().out
    assert open_corpus("fixture").label_counts("era") == {"early": 20, "late": 20}


def test_attaching_to_a_columnar_corpus_keeps_it_columnar(tmp_path, capsys):
    """Issue #49 item 2: a corpus columnar because it is large stays memory-mapped after attach-aspect (it was
    rewritten as one Parquet file, read whole into memory on every open)."""
    from explore.corpus.columnar_store import ARTICLES_ARROW, ColumnarCorpus, save_columnar
    from explore.corpus.registry import corpus_path
    from explore.corpus.store import ARTICLES_FILE

    corpus = fixture_corpus()
    save_columnar(corpus.name, corpus.provenance, [corpus.articles], corpus_path(corpus.name))
    path = tmp_path / "era.csv"
    path.write_text("id,label\n" + "".join(f"p{i},{'early' if i % 2 else 'late'}\n" for i in range(40)))
    assert main(["corpus", "attach-aspect", "fixture", "--aspect", "era", "--file", str(path)]) == 0
    assert "Aspect 'era': 2 label(s) on 40 of 120 articles" in capsys.readouterr().out
    stored = corpus_path("fixture")
    assert (stored / ARTICLES_ARROW).exists() and not (stored / ARTICLES_FILE).exists()
    reopened = open_corpus("fixture")
    assert isinstance(reopened, ColumnarCorpus)
    assert reopened.label_counts("era") == {"early": 20, "late": 20}
    assert reopened["p1"].labels("country") == corpus["p1"].labels("country")  # the other aspects kept
    assert reopened.content_hash == corpus.content_hash and [a.id for a in reopened] == [a.id for a in corpus]
