"""Issue #13, item 9: every bad JSONL input gets a clear error with its line, and a refused import loses nothing."""
import json
import tracemalloc

import pytest

from explore.cli import main
from explore.corpus.jsonl_import import import_jsonl
from explore.corpus.registry import open_corpus
from explore.errors import CorpusFormatError

GOOD = [
    {"id": "a", "title": "Alpha", "text": "First.", "links": ["b"], "aspects": {"country": ["France"]}},
    {"id": "b", "title": "Beta", "text": "Second.", "aspects": {"country": ["Italy"]}},
]


def write_jsonl(path, lines):
    path.write_text("\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n")
    return path


def article(**fields):
    return {"id": "c", "title": "Gamma", "text": "Third.", **fields}


BAD_LINES = {
    "string for a list of labels": (article(aspects={"country": "France"}), "field 'aspects.country'"),
    "names that differ by spaces": (article(aspects={" c ": ["x"], "c": ["y"]}), "' c ' and 'c'"),
    "names that differ by case": (article(aspects={"Country": ["x"], "country": ["y"]}), "'Country' and 'country'"),
}


@pytest.mark.parametrize("case", BAD_LINES)
def test_bad_line_is_refused_with_its_line(tmp_path, case):
    line, detail = BAD_LINES[case]
    with pytest.raises(CorpusFormatError) as error:
        import_jsonl(write_jsonl(tmp_path / "bad.jsonl", [*GOOD, line]), "bad")
    assert "bad.jsonl, line 3" in str(error.value) and detail in str(error.value)


def test_aspect_names_that_differ_only_by_case_across_lines_are_refused(tmp_path):
    lines = [*GOOD, article(aspects={"Country": ["Spain"]})]
    with pytest.raises(CorpusFormatError, match=r"line 3, field 'aspects': aspect 'Country' differs only by case "
                                                r"from 'country' \(line 1\)"):
        import_jsonl(write_jsonl(tmp_path / "bad.jsonl", lines), "bad")


def test_a_self_link_is_reported_as_a_self_link_with_its_line(tmp_path, capsys):
    lines = [GOOD[0], {**GOOD[1], "links": ["b", "zzz"]}]
    assert main(["corpus", "import", str(write_jsonl(tmp_path / "c.jsonl", lines)), "--name", "mine"]) == 0
    out = capsys.readouterr().out
    assert "Dropped 1 self-link (an article linking to itself) on line 2." in out
    assert "Dropped 1 link to an id not in the corpus." in out


def test_an_overlong_line_is_refused_without_reading_it_whole(tmp_path):
    path = tmp_path / "huge.jsonl"
    huge = json.dumps(article(text="x" * (8 << 20)))
    write_jsonl(path, [GOOD[0], huge])
    tracemalloc.start()
    try:
        with pytest.raises(CorpusFormatError, match=r"huge.jsonl, line 2: longer than 1 MiB"):
            import_jsonl(path, "huge")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20, f"peak {peak / 2**20:.1f} MiB while refusing an 8 MiB line"


def test_a_line_just_under_the_limit_is_read(tmp_path):
    line = json.dumps(article(text="x" * ((1 << 20) - 200)))
    assert len(line) < 1 << 20
    corpus, _ = import_jsonl(write_jsonl(tmp_path / "big.jsonl", [*GOOD, line]), "big")
    assert len(corpus["c"].text) == (1 << 20) - 200


def test_a_malformed_file_is_reported_before_the_name_is_looked_at(tmp_path, capsys):
    assert main(["corpus", "import", str(write_jsonl(tmp_path / "c.jsonl", GOOD)), "--name", "mine"]) == 0
    capsys.readouterr()
    bad = write_jsonl(tmp_path / "bad.jsonl", [GOOD[0], "{oops"])
    assert main(["corpus", "import", str(bad), "--name", "mine"]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl, line 2" in err and "--force" not in err


@pytest.mark.parametrize("case", BAD_LINES)
def test_a_refused_import_leaves_the_existing_corpus_untouched(tmp_path, capsys, case):
    assert main(["corpus", "import", str(write_jsonl(tmp_path / "c.jsonl", GOOD)), "--name", "mine"]) == 0
    before = open_corpus("mine").articles
    bad = write_jsonl(tmp_path / "bad.jsonl", [*GOOD, BAD_LINES[case][0]])
    assert main(["corpus", "import", str(bad), "--name", "mine", "--force"]) == 2
    assert "bad.jsonl, line 3" in capsys.readouterr().err
    assert open_corpus("mine").articles == before


def test_a_line_cut_before_its_closing_brace_is_named_on_its_own_line(tmp_path):
    """Issue #38, item 9: the line end after a cut-off object is not the next line."""
    path = write_jsonl(tmp_path / "cut.jsonl", [*GOOD, '{"id": "c", "title": "Gamma"', GOOD[0]])
    with pytest.raises(CorpusFormatError, match=r"cut.jsonl, line 3: not valid JSON"):
        import_jsonl(path, "cut")


def test_a_url_refusal_names_the_file_line_and_field(tmp_path):
    path = write_jsonl(tmp_path / "url.jsonl", [*GOOD, article(url="javascript:alert(1)")])
    with pytest.raises(CorpusFormatError, match=r"url.jsonl, line 3, field 'url': .*http\(s\)"):
        import_jsonl(path, "url")
