"""Read only the named fields of one JSON-object line from a byte stream, skipping every other value without holding
it: a dump record of any size costs the memory of what is kept, never of the line (a CirrusSearch page's `text`
and `source_text`, a Wikidata entity's other languages and properties). The kept fields come back as a small JSON
object, to be parsed and checked like any line."""
from __future__ import annotations

import json
import re
from typing import BinaryIO, Mapping, Union

CHUNK_BYTES = 1 << 16


class Capped(int):
    """A field kept only up to this many bytes; a longer value comes back as a stand-in, the non-blank string "…"
    (for a field of which only "is it blank?" is asked)."""


# A field spec: None keeps the whole value, Capped(n) keeps it up to n bytes, a mapping keeps only those keys of an
# object (the same rule below them).
FieldSpec = Union[None, Capped, Mapping[str, "FieldSpec"]]
STAND_IN = b'"\xe2\x80\xa6"'


class LineProblem(ValueError):
    """The line is not one JSON object with the shape the reader needs; the message says what, in a user's words."""


class KeptTooLong(LineProblem):
    """What the spec keeps of this line is longer than the limit."""


_STRING_BODY = re.compile(rb'(?:[^"\\]++|\\.)*+', re.S)  # possessive: no backtracking stack on a long string
_SCALAR = re.compile(rb'[^,}\]\s]*')
_SPACE = re.compile(rb'[ \t\r\n]*')
_STRUCTURE = re.compile(rb'["\[\]{}]')
_MAX_KEY_BYTES = 4096
_MAX_NESTING = 1000  # skipped values are counted, not recursed into: only a bound against nonsense


class _Sink:
    """Bytes kept, up to a limit; past it, nothing more is held and `over` says so (the line is still read on)."""

    def __init__(self, limit: int):
        self.parts: list[bytes] = []
        self.size, self.limit, self.over = 0, limit, False

    def add(self, data: bytes) -> None:
        if self.over:
            return
        self.size += len(data)
        if self.size > self.limit:
            self.over, self.parts = True, []
        else:
            self.parts.append(data)

    def value(self) -> bytes:
        return b"".join(self.parts)


class _Line:
    """The rest of one line of `stream`, read a chunk at a time; bytes behind `pos` are let go."""

    def __init__(self, head: bytes, stream: BinaryIO, chunk: int):
        self.buf, self.pos, self.stream, self.chunk = head, 0, stream, chunk
        self.ended = head.endswith(b"\n") or not head

    def fill(self) -> bool:
        """More of the line behind what is left unread; False at its end."""
        if self.ended:
            return False
        more = self.stream.readline(self.chunk)
        if not more or more.endswith(b"\n"):
            self.ended = True
        self.buf, self.pos = self.buf[self.pos:] + more, 0
        return bool(more)

    def drain(self) -> None:
        """Read on to the end of the line, holding nothing."""
        self.buf, self.pos = b"", 0
        while self.fill():
            self.buf, self.pos = b"", 0

    def peek(self) -> bytes:
        self.skip_space()
        return self.buf[self.pos:self.pos + 1]

    def skip_space(self) -> None:
        while True:
            self.pos = _SPACE.match(self.buf, self.pos).end()
            if self.pos < len(self.buf) or not self.fill():
                return

    def expect(self, char: bytes, what: str) -> None:
        if self.peek() != char:
            found = self.peek()
            raise LineProblem(f"expected {what}, found {found.decode('latin-1')!r}" if found else
                              f"expected {what}, found the end of the line (cut off?)")
        self.pos += 1

    def string(self, sink: _Sink | None) -> None:
        """A string, its quotes included, into `sink` (None: skipped)."""
        self.expect(b'"', "a string")
        if sink is not None:
            sink.add(b'"')
        while True:
            end = _STRING_BODY.match(self.buf, self.pos).end()
            closed = end < len(self.buf) and self.buf[end] == 0x22
            if sink is not None:
                sink.add(self.buf[self.pos:end + 1 if closed else end])
            self.pos = end + 1 if closed else end
            if closed:
                return
            if not self.fill():
                raise LineProblem("a string is not closed before the end of the line (cut off?)")

    def scalar(self, sink: _Sink | None) -> None:
        taken = 0
        while True:
            end = _SCALAR.match(self.buf, self.pos).end()
            taken += end - self.pos
            if sink is not None:
                sink.add(self.buf[self.pos:end])
            self.pos = end
            if self.pos < len(self.buf) or not self.fill():
                break
        if not taken:
            found = self.buf[self.pos:self.pos + 1].decode("latin-1")
            raise LineProblem(f"expected a value, found {found!r}" if found else "expected a value, found the end "
                                                                                 "of the line (cut off?)")

    def nested(self, sink: _Sink | None) -> None:
        """An array or object kept or skipped whole: strings jumped over, brackets counted."""
        depth = 0
        while True:
            match = _STRUCTURE.search(self.buf, self.pos)
            if match is None:
                if sink is not None:
                    sink.add(self.buf[self.pos:])
                self.pos = len(self.buf)
                if not self.fill():
                    raise LineProblem("an array or object is not closed before the end of the line (cut off?)")
                continue
            if sink is not None:
                sink.add(self.buf[self.pos:match.start()])
            self.pos = match.start()
            char = self.buf[self.pos]
            if char == 0x22:
                self.string(sink)
                continue
            if sink is not None:
                sink.add(self.buf[self.pos:self.pos + 1])
            self.pos += 1
            depth += 1 if char in (0x5B, 0x7B) else -1
            if depth > _MAX_NESTING:
                raise LineProblem(f"values nested more than {_MAX_NESTING} deep")
            if depth == 0:
                return

    def value(self, spec: FieldSpec, sink: _Sink | None) -> None:
        first = self.peek()
        if isinstance(spec, Capped) and sink is not None:
            capped = _Sink(int(spec))
            self.value(None, capped)
            sink.add(STAND_IN if capped.over else capped.value())
        elif first == b'"':
            self.string(sink)
        elif first == b"{" and isinstance(spec, Mapping):
            self.fields(spec, sink)
        elif first in (b"{", b"["):
            self.nested(sink)
        else:
            self.scalar(sink)

    def fields(self, spec: Mapping[str, FieldSpec], sink: _Sink | None) -> None:
        """An object of which only the keys of `spec` are kept (in their order on the line, repeats included, so
        the parser that reads the result refuses a key given twice)."""
        self.expect(b"{", "a JSON object")
        if sink is not None:
            sink.add(b"{")
        first = True
        if self.peek() == b"}":
            self.pos += 1
        else:
            while True:
                key_sink = _Sink(_MAX_KEY_BYTES)
                self.string(key_sink)
                if key_sink.over:
                    raise LineProblem(f"a key longer than {_MAX_KEY_BYTES} bytes")
                raw_key = key_sink.value()
                try:
                    key = json.loads(raw_key)
                except ValueError:
                    raise LineProblem(f"a key that is not a valid JSON string: {raw_key[:60]!r}") from None
                self.expect(b":", f"':' after the key {key!r}")
                if key in spec and sink is not None:
                    sink.add(raw_key + b":" if first else b"," + raw_key + b":")
                    first = False
                    self.value(spec[key], sink)
                else:
                    self.value(None, None)
                if self.peek() == b",":
                    self.pos += 1
                    continue
                self.expect(b"}", "',' or '}' after a value")
                break
        if sink is not None:
            sink.add(b"}")


def kept_fields(head: bytes, stream: BinaryIO, spec: Mapping[str, FieldSpec], limit: int, *,
                trailing_comma: bool = False, chunk: int = CHUNK_BYTES) -> bytes:
    """The fields `spec` names of the JSON object on the line that starts with `head` (already read from `stream`)
    and goes on in `stream`, as one JSON object's text. The line is always read to its end, so the next read starts
    on the next line. LineProblem when the line is no JSON object (as far as skipping can tell: a skipped value is
    not checked inside), KeptTooLong when what is kept exceeds `limit` bytes."""
    line = _Line(head, stream, chunk)
    try:
        sink = _Sink(limit)
        line.fields(spec, sink)
        if trailing_comma and line.peek() == b",":
            line.pos += 1
        if line.peek():
            raise LineProblem("more after the end of the object")
        if sink.over:
            raise KeptTooLong(f"the fields kept ({', '.join(spec)}) are longer than {limit:,} bytes")
        return sink.value()
    finally:
        line.drain()


def skip_line(head: bytes, stream: BinaryIO, chunk: int = CHUNK_BYTES) -> None:
    """Read on to the end of the line that starts with `head`, holding nothing."""
    _Line(head, stream, chunk).drain()
