import json

import pytest

from explore.cli import main
from explore.corpus.jsonl_import import import_jsonl
from explore.corpus.registry import open_corpus
from explore.errors import CorpusFormatError

GOOD = [
    {"id": "a", "title": "Alpha", "text": "First.", "links": ["b", "zzz", "a"], "aspects": {"country": ["France"]}},
    {"id": "b", "title": "Beta", "text": "Second.", "description": "second letter", "aspects": {"country": ["Italy"]},
     "aliases": ["Second letter", "B", "B"]},
    {"id": "c", "title": "Gamma", "text": "Third.", "url": "https://example.org/c"},
]


def write_jsonl(path, records, extra_lines=()):
    lines = [json.dumps(r) for r in records] + list(extra_lines)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_import_keeps_fields_and_drops_unknown_links(tmp_path):
    corpus, report = import_jsonl(write_jsonl(tmp_path / "c.jsonl", GOOD), "mine")
    assert [a.id for a in corpus] == ["a", "b", "c"]
    assert corpus["a"].links == ("b",)
    assert (report.unknown_links, report.self_link_lines) == (1, (1,))  # "zzz"; the self link on line 1
    assert corpus["b"].aspects == {"country": ("Italy",)}
    assert corpus["c"].url == "https://example.org/c"
    assert corpus.provenance.links == "hyperlinks"
    assert corpus["b"].aliases == ("Second letter", "B") and corpus["a"].aliases == ()
    assert corpus.title_search.search("second letter")[0].alias == "Second letter"


@pytest.mark.parametrize(
    "bad_line, field, message",
    [
        ("{not json", None, "not valid JSON"),
        ("[1, 2]", None, "expected a JSON object"),
        ('{"id": "d", "title": "", "text": "x"}', "title", "required, must be a non-empty string"),
        ('{"id": "d", "text": "x"}', "title", "required, must be a non-empty string"),
        ('{"id": "d", "title": "D", "text": "x", "description": 4}', "description", "must be a string"),
        ('{"id": "d", "title": "D", "text": "x", "aspects": {" ": ["a"]}}', "aspects", "bad name ' '"),
        ('{"id": "d", "title": "D", "text": 5}', "text", "non-empty string"),
        ('{"id": "d", "title": "D", "text": "x", "links": "a"}', "links", "list of article ids"),
        ('{"id": "d", "title": "D", "text": "x", "aspects": {"country": [1]}}', "aspects.country", "non-empty strings"),
        ('{"id": "d", "title": "D", "text": "x", "colour": "red"}', "colour", "unknown field"),
        ('{"id": "d", "title": "D", "text": "x", "aliases": "Dee"}', "aliases", "list of non-empty strings"),
        ('{"id": "d", "title": "D", "text": "x", "aliases": ["Dee", " "]}', "aliases", "non-empty strings"),
        ('{"id": "a", "title": "D", "text": "x"}', "id", "duplicate id 'a' (first on line 1)"),
    ],
)
def test_malformed_line_names_file_line_and_field(tmp_path, bad_line, field, message):
    path = write_jsonl(tmp_path / "bad.jsonl", GOOD, [bad_line])
    with pytest.raises(CorpusFormatError) as err:
        import_jsonl(path, "bad")
    text = str(err.value)
    assert "bad.jsonl, line 4" in text and message in text
    if field:
        assert f"field {field!r}" in text


def test_empty_and_non_utf8_files(tmp_path):
    (tmp_path / "empty.jsonl").write_text("\n\n")
    with pytest.raises(CorpusFormatError, match="no articles"):
        import_jsonl(tmp_path / "empty.jsonl", "e")
    (tmp_path / "latin.jsonl").write_bytes(json.dumps(GOOD[0]).encode() + b"\n\xff\xfe\n")
    with pytest.raises(CorpusFormatError, match="line 2: not UTF-8"):
        import_jsonl(tmp_path / "latin.jsonl", "l")
    with pytest.raises(CorpusFormatError, match="cannot be read"):
        import_jsonl(tmp_path / "missing.jsonl", "m")


def test_cli_refuses_bad_file_and_keeps_existing_corpus(tmp_path, capsys):
    assert main(["corpus", "import", str(write_jsonl(tmp_path / "c.jsonl", GOOD)), "--name", "mine"]) == 0
    assert "Dropped 1 link to an id not in the corpus" in capsys.readouterr().out
    bad = write_jsonl(tmp_path / "bad.jsonl", GOOD[:1], ["{oops"])
    assert main(["corpus", "import", str(bad), "--name", "mine", "--force"]) == 2
    assert "bad.jsonl, line 2" in capsys.readouterr().err
    assert len(open_corpus("mine")) == 3
    assert main(["corpus", "import", str(tmp_path / "c.jsonl"), "--name", "mine"]) == 2
    assert "exists; pass --force" in capsys.readouterr().err
