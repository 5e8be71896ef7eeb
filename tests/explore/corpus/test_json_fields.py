"""Reading only the named fields of a JSON-object line: what is kept, what is refused, and that a line of any size
costs the memory of its kept fields."""
import io
import json
import re
import tracemalloc

import pytest

from explore.corpus.json_fields import Capped, KeptTooLong, LineProblem, kept_fields

SPEC = {"title": None, "links": None, "claims": {"P31": None}, "text": Capped(16)}


def read(line: bytes, spec=SPEC, limit=1 << 20, head=5, **options):
    stream = io.BytesIO(line + b"the next line\n")
    kept = kept_fields(stream.readline(head), stream, spec, limit, chunk=7, **options)
    assert stream.readline() == b"the next line\n"  # the line is always read to its end
    return json.loads(kept)


def test_only_the_named_fields_are_kept_nested_ones_too():
    doc = {"skip": {"deep": ['"]}', {"x": "\\"}]}, "title": 'A "quoted" \\ title — ça', "links": ["B", "C{"],
           "claims": {"P17": [{"v": 1}], "P31": [{"v": "Q5"}]}, "text": "x" * 100, "n": -1.5e-3, "t": True}
    assert read(json.dumps(doc, ensure_ascii=False).encode() + b"\n") == {
        "title": doc["title"], "links": doc["links"], "claims": {"P31": doc["claims"]["P31"]}, "text": "\u2026"}
    assert read(b'{"text": "  ", "other": null}\n') == {"text": "  "}  # short enough to be kept as it is
    assert read(b'{"title": "Q1"},\n', trailing_comma=True) == {"title": "Q1"}


@pytest.mark.parametrize("line, problem", [
    (b'{"title": "cut off\n', "a string is not closed before the end of the line"),
    (b'{"links": ["a", "b"\n', "an array or object is not closed"),
    (b'{"a": 1 "b": 2}\n', "expected ',' or '}' after a value"),
    (b'["not", "an object"]\n', "expected a JSON object, found '['"),
    (b'{"title": "x"} and more\n', "more after the end of the object"),
    (b'{"title": "x"},\n', "more after the end of the object"),
    (b'{"title": }\n', "expected a value"),
])
def test_a_line_of_the_wrong_shape_is_a_problem_and_the_next_line_is_still_read(line, problem):
    with pytest.raises(LineProblem, match=re.escape(problem)):
        read(line)


def test_kept_fields_over_the_limit_are_refused():
    with pytest.raises(KeptTooLong, match="longer than 100 bytes"):
        read(json.dumps({"title": "x" * 200, "other": "y" * 10_000}).encode() + b"\n", limit=100)
    assert read(json.dumps({"title": "x", "other": "y" * 10_000}).encode() + b"\n", limit=100) == {"title": "x"}


def test_a_line_of_any_size_costs_the_memory_of_what_is_kept():
    skipped = '{"text": "' + 'a long article \\"quoted\\" \\\\ ' * 800_000 + '", "source_text": [' + \
              ", ".join(['{"k": "[[link]]"}'] * 200_000) + "]"
    line = (skipped + ', "title": "Kept"}\n').encode()
    assert len(line) > 25_000_000
    stream = io.BytesIO(line)
    head = stream.readline(1 << 20)
    tracemalloc.start()
    try:
        assert json.loads(kept_fields(head, stream, SPEC, 1 << 20)) == {"text": "\u2026", "title": "Kept"}
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 << 20
