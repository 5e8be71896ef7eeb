"""Issue #25 item 10: every reader of a user's file refuses malformed or hostile input with the file, line and
reason, in bounded time and memory, never a traceback; a BOM and CRLF line ends are accepted.

The class is "every reader x every fault": each reader of a file a user hands AspectNav (JSONL corpus import,
CSV and JSONL label files, YAML and JSON study files, Wikidata recipes, evaluation reports) gets each fault that
its format can hold, through the function the app and the CLI call and through the CLI itself (exit 2, one
`error:` line naming the file). Bounded time and memory are shown by inputs that never end or expand without end
(/dev/zero, a FIFO with no writer, a YAML alias bomb, 10^5-deep nesting): they must be refused, not survived.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
import yaml

from explore.corpus.registry import store_corpus
from explore.errors import AspectNavError
from tests.fixture_corpora import fixture_corpus


@dataclass(frozen=True)
class Reader:
    name: str
    suffix: str
    family: str  # jsonl, csv, json or yaml: which faults its format can hold
    good: str  # a file the reader accepts
    read: Callable[[Path], object]  # what the app and the CLI call; returns a comparable value
    cli: Callable[[Path, Path], tuple[Callable, list[str]]]  # (main, argv) of the CLI command that reads it
    wrong_shape: str  # what a refusal of a top-level value of the wrong type says


def _import(path):
    from explore.corpus.jsonl_import import import_jsonl

    corpus, _ = import_jsonl(path, "mine")
    return corpus.articles


def _labels(path):
    from explore.corpus.aspect_import import attach_aspect

    return attach_aspect(fixture_corpus(), "era", path).corpus.articles


def _study(path):
    from study.definition import load_study

    return load_study(path)


def _recipe(path):
    from explore.corpus.wikidata.recipes import load_recipe

    return load_recipe(str(path))


def _report(path):
    from training.report import EvaluationReport

    report = EvaluationReport.load(path)
    return report.corpus, report.aspects, report.k, report.split, report.spaces


def _explore(*argv):
    from explore.cli import main

    return main, list(argv)


def _training(*argv):
    from training.cli import main

    return main, list(argv)


STUDY = {"name": "s", "corpus": "fixture", "tasks": [
    {"id": "t1", "aspect": "country", "label": "France", "seed": "Person 0", "goal": "Learn about France"}]}
READERS = [
    Reader("corpus import", ".jsonl", "jsonl",
           '{"id": "a", "title": "A", "text": "Alpha."}\n{"id": "b", "title": "B", "text": "Beta."}\n', _import,
           lambda f, tmp: _explore("corpus", "import", str(f), "--name", "mine"), "expected a JSON object"),
    Reader("labels csv", ".csv", "csv", "id,label\np0,early\np1,late\n", _labels,
           lambda f, tmp: _explore("corpus", "attach-aspect", "fixture", "--aspect", "era", "--file", str(f)),
           "header"),
    Reader("labels jsonl", ".jsonl", "jsonl", '{"id": "p0", "label": "early"}\n{"id": "p1", "label": "late"}\n',
           _labels, lambda f, tmp: _explore("corpus", "attach-aspect", "fixture", "--aspect", "era", "--file", str(f)),
           "expected an object"),
    Reader("study yaml", ".yaml", "yaml", yaml.safe_dump(STUDY, sort_keys=False), _study,
           lambda f, tmp: _explore("study", "check", str(f), "--no-preview"), "must be a mapping"),
    Reader("study json", ".json", "json", json.dumps(STUDY, indent=1), _study,
           lambda f, tmp: _explore("study", "check", str(f), "--no-preview"), "must be a mapping"),
    Reader("recipe", ".json", "json", json.dumps({"class": "Q5", "aspects": {"P17": "country"}}, indent=1), _recipe,
           lambda f, tmp: _explore("corpus", "build", "wikidata", "--recipe", str(f), "--endpoint",
                                   "http://127.0.0.1:9/none", "--wiki-api", "http://127.0.0.1:9/none"),
           "a recipe is a JSON object"),
    Reader("report", ".json", "json",
           json.dumps({"corpus": "c", "aspects": ["a"], "k": 10, "split": {}, "spaces": {"g": {"a": 0.5}}}, indent=1),
           _report, lambda f, tmp: _training("summarize", str(f), "--output", str(tmp / "summary")),
           "not an evaluation report"),
]

DEEP = 100_000
FAMILIES = ("jsonl", "csv", "json", "yaml")
BOMB = "".join(f"{b}: &{b} [{', '.join(['*' + a] * 9)}]\n" for a, b in zip("abcdefgh", "bcdefghi"))


def _second_line(reader: Reader, bad: str) -> tuple[str, int]:
    """For line readers: the good file's first line(s), then `bad` as line 2."""
    first = reader.good.splitlines()[0] + "\n"
    return first + bad + "\n", 2


# fault -> {family: (content, expected line or None, what the refusal says)}; a family left out cannot hold the
# fault. Content may be a function (the 10 MB line, made only for the case that uses it).
def faults(reader: Reader) -> dict[str, tuple]:
    good, wrong = reader.good, reader.wrong_shape
    deep = "[" * DEEP + "]" * DEEP
    latin1 = b'"caf\xe9"'  # "café" saved as Latin-1
    whole_file_limit = "not an evaluation report" if reader.name == "report" else r"larger than \d+ MiB"
    last_line = good.count("\n")
    first_key = good.split('"')[1] if reader.family == "json" else ""
    cases = {
        "deep nesting": {"jsonl": (*_second_line(reader, deep), "nested more than"),
                         "json": (deep, None, "nested more than"),
                         "yaml": ("intro: " + deep + "\n", 1, "nested more than")},
        "10 MB single line": {"jsonl": (lambda: _second_line(reader, "x" * (10 << 20))[0], 2, "longer than 1 MiB"),
                              "csv": (lambda: _second_line(reader, "x" * (10 << 20))[0], 2, "longer than 1 MiB"),
                              "json": (lambda: '"' + "x" * (10 << 20) + '"', None, whole_file_limit),
                              "yaml": (lambda: '"' + "x" * (10 << 20) + '"', None, whole_file_limit)},
        "huge CSV field": {"csv": (*_second_line(reader, 'p1,"' + "x" * 200_000 + '"'), "field larger than")},
        "YAML alias bomb": {"yaml": ("a: &a [x, x, x, x, x, x, x, x, x]\n" + BOMB + good + "intro: *i\n", 6,
                                     "aliases expand")},
        "YAML self-referring alias": {"yaml": (good + "intro: &loop [*loop]\n", None, "refers to a value")},
        "YAML Python tag": {"yaml": (good + "intro: !!python/object/apply:os.system ['touch pwned']\n", None,
                                     "could not determine a constructor")},
        "not UTF-8": {"jsonl": (good.encode() + b'{"id": "c", "title": ' + latin1 + b', "text": "x"}\n', 3,
                                "not UTF-8 text"),
                      "csv": (good.encode() + b"p2," + latin1 + b"\n", 4, "not UTF-8 text"),
                      "json": (good.encode()[:-1] + b', "x": ' + latin1 + b"}", None, "not UTF-8 text"),
                      "yaml": (good.encode() + b"intro: " + latin1 + b"\n", None, "not UTF-8 text")},
        "NUL byte": {family: (good.replace("\n", "\n\0", 1), 2, "NUL byte") for family in FAMILIES},
        "top-level list": {"jsonl": (*_second_line(reader, "[1, 2]"), wrong), "json": ("[1, 2]", None, wrong),
                           "yaml": ("- 1\n- 2\n", None, wrong)},
        "top-level string": {"jsonl": (*_second_line(reader, '"hello"'), wrong), "json": ('"hello"', None, wrong),
                             "yaml": ("hello\n", None, wrong)},
        "top-level number": {"jsonl": (*_second_line(reader, "42"), wrong), "json": ("42", None, wrong),
                             "yaml": ("42\n", None, wrong)},
        "duplicate keys": {"jsonl": (*_second_line(reader, good.splitlines()[1][:-1] + ', "id": "zz"}'), "given twice"),
                           "csv": ("id,label,label\np0,a,b\n", 1, "header"),
                           "json": (good[:-1] + f', "{first_key}": 1}}', None, "given twice"),
                           "yaml": (good + "name: other\n", None, "given twice")},
        "empty file": {family: ("", None, "empty|no articles|no rows") for family in FAMILIES},
        "truncated last line": {"jsonl": (good.rstrip("\n")[:-6], last_line, "not valid JSON"),
                                "csv": (good.rstrip("\n")[:-6], last_line, "expected 2 fields"),
                                "json": (good.rstrip("\n")[:-6], None, "not valid JSON")},
        "5,000-digit number": {"jsonl": (*_second_line(reader, '{"id": ' + "9" * 5000 + "}"), "cannot hold"),
                               "json": (good[:-1] + ', "x": ' + "9" * 5000 + "}", None, "cannot hold"),
                               "yaml": (good + "intro: " + "9" * 5000 + "\n", None, "cannot hold")},
        "lone surrogate": {"jsonl": (*_second_line(reader, good.splitlines()[1].replace('"b"', '"b\\ud800"')
                                                   .replace('"p1"', '"p1\\ud800"')), "not valid Unicode"),
                           "json": (good[:-1] + ', "x": "\\ud800"}', None, "not valid Unicode"),
                           "yaml": (good + 'intro: "\\ud800"\n', None, "not valid Unicode")},
    }
    return {fault: by_family[reader.family] for fault, by_family in cases.items() if reader.family in by_family}


SPECIAL = {"a folder": "is a folder", "a missing file": "cannot be read|does not exist|No recipe",
           "an unreadable file": "cannot be read", "/dev/zero": "not a regular file", "a FIFO": "not a regular file"}


def _special(kind: str, path: Path) -> None:
    if kind == "a folder":
        path.mkdir()
    elif kind == "an unreadable file":
        if os.geteuid() == 0:  # root reads a 0o000 file; a read that fails with EIO is the same fault for the reader
            path.symlink_to("/proc/self/mem")
        else:
            path.write_text("id,label\n")
            path.chmod(0)
    elif kind == "/dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "a FIFO":
        os.mkfifo(path)  # opening it for reading waits for a writer that never comes


CASES = [(reader, fault) for reader in READERS for fault in faults(reader)] + \
        [(reader, special) for reader in READERS for special in SPECIAL]


def hostile_file(reader: Reader, fault: str, tmp_path: Path) -> tuple[Path, int | None, str]:
    path = tmp_path / f"hostile{reader.suffix}"
    if fault in SPECIAL:
        _special(fault, path)
        return path, None, SPECIAL[fault]
    content, line, reason = faults(reader)[fault]
    content = content() if callable(content) else content
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path, line, reason


def case_id(case) -> str:
    return f"{case[0].name}: {case[1]}"


@pytest.fixture
def stored_fixture(isolated_home):
    store_corpus(fixture_corpus())  # what the label files label


@pytest.mark.parametrize("reader, fault", CASES, ids=map(case_id, CASES))
def test_every_reader_refuses_every_hostile_file_with_file_line_and_reason(reader, fault, tmp_path, stored_fixture):
    path, line, reason = hostile_file(reader, fault, tmp_path)
    with pytest.raises(AspectNavError) as refused:
        reader.read(path)
    message = str(refused.value)
    assert str(path) in message and re.search(reason, message), message
    if line is not None:
        assert f"line {line}" in message, message
    assert len(message) < 600, message[:600]  # says why in a sentence, never echoes the file
    assert not Path("pwned").exists()


@pytest.mark.parametrize("reader, fault", CASES, ids=map(case_id, CASES))
def test_no_hostile_file_gets_a_traceback_out_of_the_cli(reader, fault, tmp_path, stored_fixture, capsys):
    path, _, reason = hostile_file(reader, fault, tmp_path)
    main, argv = reader.cli(path, tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and str(path) in err and re.search(reason, err), err
    assert len(err.splitlines()) == 1, err


@pytest.mark.parametrize("reader", READERS, ids=[r.name for r in READERS])
@pytest.mark.parametrize("variant", ["UTF-8 BOM", "CRLF line ends", "BOM and CRLF"])
def test_a_bom_and_crlf_line_ends_are_accepted(reader, variant, tmp_path, stored_fixture):
    plain, other = (tmp_path / folder / f"given{reader.suffix}" for folder in ("plain", "other"))  # one name
    plain.parent.mkdir(), other.parent.mkdir()
    plain.write_text(reader.good, encoding="utf-8")
    text = reader.good.replace("\n", "\r\n") if "CRLF" in variant else reader.good
    other.write_bytes(("\ufeff" if "BOM" in variant else "").encode() + text.encode("utf-8"))
    assert reader.read(other) == reader.read(plain)


def test_a_study_may_share_values_through_yaml_aliases(tmp_path):
    """Aliases are bounded, not banned: a study that names its sources once and reuses them still loads."""
    from study.definition import load_study

    path = tmp_path / "shared.yaml"
    path.write_text("name: s\ncorpus: fixture\ndefaults: {sources: &mine [generic, links]}\ntasks:\n"
                    "  - {id: t1, aspect: country, label: France, seed: P, goal: g, sources: *mine}\n"
                    "  - {id: t2, aspect: country, label: Japan, seed: Q, goal: h, sources: *mine}\n")
    study = load_study(path)
    assert [s.label for s in study.tasks[1].sources] == ["generic", "links"]


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["deep nesting", "YAML alias bomb", "/dev/zero"])
def test_a_real_process_prints_one_line_and_no_traceback(fault, tmp_path):
    """The console script's process end to end: exit 2, one `error:` line, no `Traceback` on stderr."""
    reader = next(r for r in READERS if r.name == "study yaml")
    path, _, reason = hostile_file(reader, fault, tmp_path)
    env = {**os.environ, "ASPECTNAV_HOME": str(tmp_path / "home"), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-m", "study", "check", str(path), "--no-preview"], env=env,
                          capture_output=True, text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert re.search(reason, done.stderr) and str(path) in done.stderr


@pytest.mark.parametrize("command", [["study", "report"], ["study", "simulate", "--pilot"]])
def test_a_study_database_that_is_not_one_is_refused_in_one_line(command, tmp_path, capsys):
    """A text file given where a study database (SQLite) goes: once a `sqlalchemy.exc.DatabaseError` traceback."""
    from explore.cli import main

    path = tmp_path / "pilot.db"
    path.write_text("not a database\n" * 100)
    assert main([*command, str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: Cannot open the study database") and "file is not a database" in err, err
    assert len(err.splitlines()) == 1
