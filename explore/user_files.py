"""Read a file a user hands us (JSONL corpus, label file, study, recipe, report) in bounded time and memory.

Every refusal is the reader's own error type (`error=`) with the file, the line where it applies and the reason:
never a traceback, whatever the file holds. The bounds are far above any real file of these kinds and far below
what would hurt: a whole file is read only up to `max_bytes` (a device such as /dev/zero is refused before it is
read), one line up to `max_line_bytes`, values nest at most `MAX_DEPTH` deep, and a YAML file's aliases may expand
to at most `MAX_YAML_NODES` values (a "billion laughs" file is refused before anything is built from it).
A UTF-8 byte order mark and CRLF line ends are accepted; NUL bytes, other encodings, duplicate keys and text that
is not valid Unicode (a lone surrogate escape) are refused.
"""
from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any, BinaryIO, Iterator

import yaml

from explore.errors import AspectNavError

MAX_DEPTH = 64  # a study nests 6 deep, a JSONL article 3
MAX_YAML_NODES = 200_000  # values after expanding aliases: a study of 5,000 tasks stays well under it
MAX_FILE_BYTES = 16 << 20  # a whole-file read (study, recipe, report); line-by-line readers bound each line instead
MAX_LINE_BYTES = 1 << 20

ErrorType = type[AspectNavError]


def where(path: Path, line: int | None) -> str:
    return f"{path}, line {line}" if line else f"{path}"


def kind_of(value: Any) -> str:
    """A parsed value's kind in a user's words: "a list", "a number", "nothing (an empty file)"."""
    if value is None:
        return "nothing (an empty file, or null)"
    kinds = {bool: "true or false", int: "a number", float: "a number", str: "a text", list: "a list",
             dict: "a mapping"}
    return kinds.get(type(value), f"a {type(value).__name__}")


def open_user_file(path: Path, error: ErrorType) -> BinaryIO:
    """The file opened for reading bytes, or `error`: missing, a folder, a device or pipe, or unreadable."""
    path = Path(path)
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{path}: is a folder, not a file")
        if not stat.S_ISREG(mode):  # /dev/zero never ends, a FIFO waits for a writer forever
            raise error(f"{path}: not a regular file (a device, pipe or socket)")
        return path.open("rb")
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror or exc})") from None


def _decoded(raw: bytes, path: Path, error: ErrorType, first_line: int, strip_bom: bool) -> str:
    if strip_bom and raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    nul = raw.find(b"\0")
    if nul >= 0:
        line = first_line + raw.count(b"\n", 0, nul)
        raise error(f"{where(path, line)}: holds a NUL byte (at byte {nul}); is it a binary file?")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = first_line + raw.count(b"\n", 0, exc.start)
        raise error(f"{where(path, line)}: not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8"
                    ) from None


def read_user_text(path: Path, error: ErrorType, max_bytes: int = MAX_FILE_BYTES, what: str = "file") -> str:
    """The whole file as text (a BOM dropped), refused past `max_bytes` before more is read."""
    path = Path(path)
    with open_user_file(path, error) as handle:
        try:
            raw = handle.read(max_bytes + 1)
        except OSError as exc:
            raise error(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > max_bytes:
        raise error(f"{path}: larger than {max_bytes >> 20} MiB, the limit for a {what}")
    return _decoded(raw, path, error, 1, strip_bom=True)


def user_lines(path: Path, error: ErrorType, max_line_bytes: int = MAX_LINE_BYTES,
               what: str = "line") -> Iterator[tuple[int, str]]:
    """(line number, text) of each line, read one at a time: a line past `max_line_bytes` is refused before it
    is read whole; the line end is kept (CRLF as written); a BOM on the first line is dropped."""
    path = Path(path)
    with open_user_file(path, error) as handle:
        number = 0
        while True:
            try:
                raw = handle.readline(max_line_bytes + 1)
            except OSError as exc:
                raise error(f"{where(path, number + 1)}: cannot be read ({exc.strerror or exc})") from None
            if not raw:
                return
            number += 1
            if len(raw) > max_line_bytes and not raw.endswith(b"\n"):
                raise error(f"{where(path, number)}: longer than {max_line_bytes >> 20} MiB, the limit for one {what}")
            yield number, _decoded(raw, path, error, number, strip_bom=number == 1)


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise _Refused(f"the key {key!r} is given twice (which one is meant?)")
        seen[key] = value
    return seen


class _Refused(ValueError):
    """Raised inside a parser's hooks; turned into the reader's error with the file and line."""

    def __init__(self, reason: str, line: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.line = line


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # the only way JSON text decoded strictly holds a lone surrogate


def parse_user_json(text: str, path: Path, error: ErrorType, line: int | None = None) -> Any:
    """One JSON value (a whole file, or one line `line` of a JSONL file), checked by `check_user_value`."""
    offset = (line - 1) if line else 0
    if line:  # one line of a JSONL file: its line end is not a line of its own (a cut-off object ends there)
        text = text.rstrip("\r\n")
    if not text.strip():
        raise error(f"{where(path, line)}: empty (no JSON value)")
    try:
        value = json.loads(text, object_pairs_hook=_refuse_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise error(f"{where(path, exc.lineno + offset)}: not valid JSON ({exc.msg} at column {exc.colno})") from None
    except _Refused as exc:
        raise error(f"{where(path, line)}: {exc.reason}") from None
    except RecursionError:
        raise error(f"{where(path, line)}: values nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise error(f"{where(path, line)}: a value JSON cannot hold here ({exc})") from None
    return check_user_value(value, path, error, line, texts=_SURROGATE_ESCAPE.search(text) is not None)


def check_user_value(value: Any, path: Path, error: ErrorType, line: int | None = None, texts: bool = True) -> Any:
    """`value` if it nests at most MAX_DEPTH deep and every text in it is valid Unicode, else `error`. `texts=False`
    skips the texts (each encoded to find a lone surrogate) when none can hold one: JSON without a surrogate escape,
    whose text was already decoded strictly."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise error(f"{where(path, line)}: text that is not valid Unicode ({item[exc.start]!r}, a lone "
                            f"surrogate, in {item[:40]!r})") from None
            continue
        if isinstance(item, dict):
            children = [*item.keys(), *item.values()] if texts else item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth >= MAX_DEPTH and children:
            raise error(f"{where(path, line)}: values nested more than {MAX_DEPTH} deep")
        stack.extend((child, depth + 1) for child in children if texts or isinstance(child, (dict, list, tuple)))
    return value


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader (no Python tags) that refuses deep nesting while composing, duplicate keys, and aliases that
    expand past MAX_YAML_NODES values or refer to themselves, before any Python value is built."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _Refused(f"values nested more than {MAX_DEPTH} deep", self.peek_event().start_mark.line + 1)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            seen = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    duplicate = key in seen
                except TypeError:
                    continue  # an unhashable key: SafeConstructor refuses it with its own message
                if duplicate:
                    raise _Refused(f"the key {key!r} is given twice (which one is meant?)",
                                   key_node.start_mark.line + 1)
                seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _expanded_size(root: yaml.Node) -> None:
    """Refuse a node graph whose aliases expand past MAX_YAML_NODES values, nest past MAX_DEPTH or loop."""
    sizes: dict[int, tuple[int, int]] = {}  # id(node) -> (expanded values, depth)
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = ([n for pair in node.value for n in pair] if isinstance(node, yaml.MappingNode)
                    else node.value if isinstance(node, yaml.SequenceNode) else [])
        if done:
            on_path.discard(key)
            size = 1 + sum(sizes[id(c)][0] for c in children)
            depth = 1 + max((sizes[id(c)][1] for c in children), default=0)
            if size > MAX_YAML_NODES:
                raise _Refused(f"aliases expand to more than {MAX_YAML_NODES:,} values (a \"billion laughs\" file?)",
                               node.start_mark.line + 1)
            if depth > MAX_DEPTH:
                raise _Refused(f"values nested more than {MAX_DEPTH} deep (through aliases)", node.start_mark.line + 1)
            sizes[key] = (size, depth)
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise _Refused("an alias refers to a value that contains it", node.start_mark.line + 1)
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children if id(child) not in sizes)


def parse_user_yaml(text: str, path: Path, error: ErrorType) -> Any:
    """One YAML document, safely: no Python tags, bounded nesting and alias expansion, no duplicate keys."""
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node)
        value = loader.construct_document(node)
    except _Refused as exc:
        raise error(f"{where(path, exc.line)}: {exc.reason}") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        reason = "; ".join(part for part in (exc.context, exc.problem) if part)
        raise error(f"{where(path, mark.line + 1 if mark else None)}: not valid YAML ({reason})") from None
    except yaml.YAMLError as exc:
        raise error(f"{path}: not valid YAML ({exc})") from None
    except RecursionError:
        raise error(f"{path}: values nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise error(f"{path}: a value YAML cannot hold here ({exc})") from None
    finally:
        loader.dispose()
    return check_user_value(value, path, error)
