"""Label a corpus's Wikidata items from the Wikidata JSON dump (`latest-all.json.gz` / `.bz2`: a JSON array, one
entity per line, every line but the last ending with a comma) instead of asking SPARQL. The values are those the
query service's `wdt:` triples give (the best rank: a property's preferred statements if it has any, else its
normal ones, never deprecated ones; "unknown value" and "no value" give none), each named by its English (the
recipe's language) label, else by its QID: the labels `label_corpus` gets from an endpoint loaded with the same dump.

The dump is streamed: an entity's id is read from the start of its line and only the lines of the corpus's items
and of the values they need are parsed (of a line over 1 MiB only the recipe's claims and one language's label,
explore/corpus/json_fields.py). A value whose entity came before the first item that needed it is found by a second
pass that stops once it has them all, or at the last such line. A sealed checkpoint every CHECKPOINT_LINES lines (it
holds every value found so far) lets a killed run go on where it stopped when the same command runs again."""
from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
import zlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tqdm import tqdm

from explore.atomic_files import file_written_atomically
from explore.corpus.cirrus_dump import damaged_or_disk, open_dump
from explore.corpus.era import century_of_wikidata_time
from explore.corpus.json_fields import LineProblem, kept_fields, skip_line
from explore.corpus.jsonl_import import parse_json_line
from explore.corpus.model import Corpus
from explore.corpus.wikidata.corpus_labels import QID, LabelSummary, labelled_corpus
from explore.corpus.wikidata.recipes import Recipe
from explore.errors import CorpusFormatError
from explore.json_seal import SEAL_KEY, seal_problem, sealed
from explore.names import check_name
from explore.settings import data_home

CHECKPOINT_LINES = 1_000_000  # about 13 GB of the decompressed dump (entities average ~13 KB): a few minutes
HEAD_BYTES = 1 << 20  # read whole below this; longer lines are skipped or read for their kept fields only
KEPT_BYTES = 16 << 20  # an item's claims of the recipe's properties: far below this even for a country
EXAMPLES_KEPT = 5
CHECKPOINT_FILE = "checkpoint.json"
_ENTITY_ID = re.compile(rb'"id"\s*:\s*"([QPL][1-9][0-9]*)"')  # the dump writes "type" then "id" first
_ID_WITHIN = 512
_LITERAL = "="  # a value that is text (a string, an external id), not an item: kept as "=text"
log = logging.getLogger(__name__)


@dataclass
class DumpLabelCheckpoint:
    """How far labelling from one dump got. `dump` identifies the file, `key` the recipe and the corpus's items: a
    checkpoint of another file, recipe or corpus is never resumed."""

    dump: dict
    key: str
    phase: str = "items"  # "items" (the corpus's items and the values seen after them), then "labels", then "done"
    line: int = 0  # lines of the dump done in this phase
    offset: int = 0  # decompressed bytes those lines take
    claims: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # item found -> aspect -> values
    labels: dict[str, str] = field(default_factory=dict)  # value item -> its label ("" when it has none)
    needed_from: dict[str, int] = field(default_factory=dict)  # value item not yet found -> line that first needed it
    problems: int = 0  # wanted lines that could not be read
    examples: list[str] = field(default_factory=list)
    not_items: int = 0  # claim values of the recipe's properties whose target is no well-formed item id: skipped
    not_item_examples: list[str] = field(default_factory=list)


_CHECKPOINT_KEYS = frozenset(DumpLabelCheckpoint.__dataclass_fields__)


def label_corpus_from_dump(corpus: Corpus, recipe: Recipe, dump: Path, output: str | None = None, *,
                           progress: bool | None = None, checkpoint_lines: int = CHECKPOINT_LINES,
                           on_checkpoint: Callable[[DumpLabelCheckpoint], None] | None = None,
                           ) -> tuple[Corpus, LabelSummary]:
    """A copy of `corpus` (named `output`, else the same) whose recipe aspects hold the values the Wikidata dump at
    `dump` gives its items, as `label_corpus` does from an endpoint; resumes a checkpoint of the same dump, recipe
    and items. The caller stores the corpus, then calls `finish_dump_labels(name)`."""
    dump = Path(dump)
    qids = [article.id for article in corpus if QID.match(article.id)]
    items = set(qids)
    work = dump_labels_dir(output or corpus.name)
    checkpoint, resumed = _resumable(work, dump, _key(recipe, qids))
    spec = {"id": None, "labels": {recipe.language: None}, "claims": {pid: None for pid in recipe.aspects}}
    with _Bar(dump, progress, len(items), len(checkpoint.claims)) as bar:
        if checkpoint.phase == "items":
            def take(entity: dict, line: int) -> None:
                qid = entity["id"]
                if qid in items:
                    checkpoint.claims[qid] = _truthy_values(entity.get("claims"), recipe, checkpoint)
                    bar.found()
                    for values in checkpoint.claims[qid].values():
                        for value in values:
                            if not value.startswith(_LITERAL) and value not in checkpoint.labels:
                                checkpoint.needed_from.setdefault(value, line)
                if qid in checkpoint.needed_from:
                    _take_label(checkpoint, entity, recipe.language)

            _scan(dump, work, checkpoint, spec, lambda qid: qid in items or qid in checkpoint.needed_from, take, None,
                  bar, checkpoint_lines, on_checkpoint)
            checkpoint.phase, checkpoint.line, checkpoint.offset = "labels", 0, 0
            _save(work, checkpoint, on_checkpoint)
        if checkpoint.phase == "labels" and checkpoint.needed_from:
            bar.stage("value labels (second pass)")
            last = max(checkpoint.needed_from.values())
            _scan(dump, work, checkpoint, {"id": None, "labels": {recipe.language: None}},
                  lambda qid: qid in checkpoint.needed_from,
                  lambda entity, line: _take_label(checkpoint, entity, recipe.language), last, bar, checkpoint_lines,
                  on_checkpoint)
        checkpoint.phase = "done"
        _save(work, checkpoint, on_checkpoint)
    summary = LabelSummary(articles=len(corpus), with_qid=len(qids))
    summary.unknown_items = [qid for qid in qids if qid not in checkpoint.claims]
    unreadable = (f"; {checkpoint.problems} entity lines unreadable: {'; '.join(checkpoint.examples)}"
                  if checkpoint.problems else "")
    if checkpoint.not_items:
        unreadable += (f"; {checkpoint.not_items} claim values that are not item ids skipped (e.g. "
                       f"{', '.join(map(repr, checkpoint.not_item_examples))})")
    summary.read_from = (f"the Wikidata dump {dump.name} ({len(checkpoint.claims):,} of the items found"
                         f"{'; resumed at ' + resumed if resumed else ''}{unreadable})")
    return labelled_corpus(corpus, recipe, _values(checkpoint), summary, {"aspects_dump": str(dump.resolve())},
                           output)


def dump_labels_dir(name: str) -> Path:
    """Where labelling corpus `name` from a dump keeps its checkpoint until the labelled corpus is stored."""
    return data_home() / "wikidata-dump-labels" / check_name(name, "corpus")


def finish_dump_labels(name: str) -> None:
    shutil.rmtree(dump_labels_dir(name), ignore_errors=True)


def _key(recipe: Recipe, qids: list[str]) -> str:
    identity = json.dumps([sorted(recipe.aspects.items()), recipe.language, sorted(qids)])
    return hashlib.sha256(identity.encode()).hexdigest()


def _truthy_values(claims: object, recipe: Recipe, checkpoint: DumpLabelCheckpoint) -> dict[str, list[str]]:
    """aspect -> the values of its properties that `wdt:` gives (best rank, value snaks only), in claim order; a
    target that is no well-formed item id (Q and digits) is counted in `checkpoint` and skipped, never a label."""
    found: dict[str, list[str]] = {}
    if not isinstance(claims, dict):
        return found
    for pid, aspect in recipe.aspects.items():
        statements = [s for s in claims.get(pid) or () if isinstance(s, dict)]
        best = "preferred" if any(s.get("rank") == "preferred" for s in statements) else "normal"
        for statement in statements:
            snak = statement.get("mainsnak")
            if statement.get("rank", "normal") != best or not isinstance(snak, dict) or snak.get("snaktype") != "value":
                continue
            value = _value(snak.get("datavalue"))
            if value is not None and not value.startswith(_LITERAL) and not QID.match(value):
                checkpoint.not_items += 1
                if len(checkpoint.not_item_examples) < EXAMPLES_KEPT:
                    checkpoint.not_item_examples.append(value[:80])
                continue
            if value and value not in found.setdefault(aspect, []):
                found[aspect].append(value)
    return {aspect: values for aspect, values in found.items() if values}


def _value(datavalue: object) -> str | None:
    """An item (or property) value's id, a text value as "=text", a time as "=<its century>"; None for the kinds
    labels do not use (a quantity, coordinates, a media file) and a time less precise than a century."""
    if not isinstance(datavalue, dict):
        return None
    kind, value = datavalue.get("type"), datavalue.get("value")
    if kind == "wikibase-entityid" and isinstance(value, dict):
        qid = value.get("id")
        if not qid and value.get("entity-type") == "item" and isinstance(value.get("numeric-id"), int):
            qid = f"Q{value['numeric-id']}"
        return qid if isinstance(qid, str) else None
    if kind == "string" and isinstance(value, str):
        return _LITERAL + value
    if kind == "monolingualtext" and isinstance(value, dict) and isinstance(value.get("text"), str):
        return _LITERAL + value["text"]
    if kind == "time" and isinstance(value, dict):  # an inception, a publication date: its century (when)
        precision = value.get("precision")
        century = century_of_wikidata_time(value.get("time"), precision if isinstance(precision, int) else None)
        return _LITERAL + century if century else None
    return None


def _take_label(checkpoint: DumpLabelCheckpoint, entity: dict, language: str) -> None:
    label = (entity.get("labels") or {}).get(language)
    text = label.get("value") if isinstance(label, dict) else None
    checkpoint.labels[entity["id"]] = text if isinstance(text, str) else ""
    checkpoint.needed_from.pop(entity["id"], None)


def _values(checkpoint: DumpLabelCheckpoint) -> dict[str, dict[str, tuple[str, ...]]]:
    """{item: {aspect: labels}} as `parse_aspect_values` gives them: sorted, a value without a label named by its id."""
    def name(value: str) -> str:
        return value[len(_LITERAL):] if value.startswith(_LITERAL) else checkpoint.labels.get(value) or value

    return {qid: {aspect: tuple(sorted({name(value) for value in values})) for aspect, values in by_aspect.items()}
            for qid, by_aspect in checkpoint.claims.items() if by_aspect}


def _scan(dump: Path, work: Path, checkpoint: DumpLabelCheckpoint, spec: dict, wanted: Callable[[str], bool],
          take: Callable[[dict, int], None], last_line: int | None, bar: "_Bar", checkpoint_lines: int,
          on_checkpoint) -> None:
    """Read the dump from the checkpoint's line (to `last_line`, else its end), handing each wanted entity's kept
    fields to `take`; a checkpoint every `checkpoint_lines` lines."""
    stream, raw = open_dump(dump)
    line = checkpoint.line
    with stream:
        try:
            if checkpoint.offset:
                stream.seek(checkpoint.offset)  # decompresses up to there, without reading lines
            while last_line is None or (line < last_line and checkpoint.needed_from):
                head = stream.readline(HEAD_BYTES)
                if not head:
                    break
                line += 1
                if line == 1 and checkpoint.phase == "items" and head.strip() != b"[":
                    raise CorpusFormatError(
                        f"{dump}: not a Wikidata JSON dump (latest-all.json.gz: a JSON array, one entity per line); "
                        f"its first line is {head[:80].decode('utf-8', 'replace')!r}. A CirrusSearch dump is "
                        "imported with `corpus import-dump`.")
                _read_line(dump, head, stream, line, spec, wanted, take, checkpoint)
                bar.advance(raw, line)
                if line % checkpoint_lines == 0:
                    checkpoint.line, checkpoint.offset = line, stream.tell()
                    _save(work, checkpoint, on_checkpoint)
        except (EOFError, OSError, zlib.error) as exc:
            raise damaged_or_disk(dump, raw, line, exc) from None
    checkpoint.line, checkpoint.offset = line, 0


def _read_line(dump, head, stream, line, spec, wanted, take, checkpoint) -> None:
    match = _ENTITY_ID.search(head, 0, _ID_WITHIN)
    if match is None:
        if head.strip() in (b"[", b"]", b"", b","):
            return
        try:  # no id where the dump puts it: read it the long way
            qid = json.loads(kept_fields(head, stream, {"id": None}, 1024, trailing_comma=True)).get("id")
        except (LineProblem, ValueError) as exc:
            _problem(checkpoint, f"{dump}, line {line}: {exc}")
            return
        if not isinstance(qid, str) or not wanted(qid):
            return
        _problem(checkpoint, f"{dump}, line {line}: the entity {qid} does not start with its id; skipped")
        return
    if not wanted(match.group(1).decode()):
        if not head.endswith(b"\n"):
            skip_line(head, stream)
        return
    try:  # both parsed as every importer parses a line: nesting bounded, keys once (jsonl_import.parse_json_line)
        if head.endswith(b"\n"):  # the whole line: the C parser reads it 20 times faster than the skipping reader
            entity = parse_json_line(dump, line, head.rstrip().removesuffix(b","))
        else:
            entity = parse_json_line(dump, line, kept_fields(head, stream, spec, KEPT_BYTES, trailing_comma=True))
    except LineProblem as exc:
        _problem(checkpoint, f"{dump}, line {line}: {exc}")
        return
    except CorpusFormatError as exc:  # its words name the file and line
        _problem(checkpoint, str(exc))
        return
    if not isinstance(entity, dict) or entity.get("id") != match.group(1).decode():
        _problem(checkpoint, f"{dump}, line {line}: its id is not the first one on the line; skipped")
        return
    take(entity, line)


def _problem(checkpoint: DumpLabelCheckpoint, message: str) -> None:
    checkpoint.problems += 1
    if len(checkpoint.examples) < EXAMPLES_KEPT:
        checkpoint.examples.append(message)


def _identity(path: Path) -> dict:
    try:
        stat = path.stat()
    except OSError as exc:
        raise CorpusFormatError(f"{path}: cannot be read ({exc.strerror})") from exc
    return {"path": str(path.resolve()), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


def _resumable(work: Path, dump: Path, key: str) -> tuple[DumpLabelCheckpoint, str]:
    """The checkpoint to go on from and where it resumes ("" when starting afresh); a checkpoint of another dump,
    recipe or corpus, or one that fails its seal, is cleared (a damaged one with a warning)."""
    identity = _identity(dump)
    path = work / CHECKPOINT_FILE
    if path.exists():
        try:
            record = json.loads(path.read_text())
            problem = seal_problem(record, _CHECKPOINT_KEYS) if isinstance(record, dict) else "not a JSON object"
            if problem is None and SEAL_KEY not in record:
                problem = "it has no checksum"
            saved = None if problem else DumpLabelCheckpoint(**{k: v for k, v in record.items() if k != SEAL_KEY})
        except (OSError, ValueError, TypeError) as exc:
            problem, saved = f"it cannot be read ({exc})", None
        if saved is not None and saved.dump == identity and saved.key == key:
            stage = {"items": "the items pass", "labels": "the labels pass"}.get(saved.phase, "the end")
            return saved, f"line {saved.line:,} of {stage}" if saved.line or saved.phase != "items" else ""
        if problem:
            log.warning("Labelling from %s: its saved state %s cannot be trusted (%s); starting again.", dump, path,
                        problem)
    shutil.rmtree(work, ignore_errors=True)
    return DumpLabelCheckpoint(dump=identity, key=key), ""


def _save(work: Path, checkpoint: DumpLabelCheckpoint, on_checkpoint) -> None:
    with file_written_atomically(work / CHECKPOINT_FILE, suffix=".tmp") as staging:
        staging.write_text(json.dumps(sealed(asdict(checkpoint)), ensure_ascii=False))
    if on_checkpoint:
        on_checkpoint(checkpoint)


class _Bar:
    """A tqdm bar over the dump's compressed bytes (so the ETA holds for a 100 GB file), the items found beside it;
    drawn only on a terminal unless asked for."""

    def __init__(self, dump: Path, enabled: bool | None, items: int, found: int):
        self.bar = tqdm(total=dump.stat().st_size, desc="Wikidata dump: items", unit="B", unit_scale=True,
                        disable=None if enabled is None else not enabled, mininterval=0.5)
        self.items, self.found_count = items, found

    def stage(self, name: str) -> None:
        self.bar.reset()
        self.bar.set_description(f"Wikidata dump: {name}")

    def found(self) -> None:
        self.found_count += 1

    def advance(self, raw, line: int) -> None:
        if self.bar.disable or line % 1000:
            return
        self.bar.update(raw.tell() - self.bar.n)
        self.bar.set_postfix_str(f"{self.found_count:,} of {self.items:,} items, line {line:,}", refresh=False)

    def __enter__(self) -> "_Bar":
        return self

    def __exit__(self, *exc) -> None:
        self.bar.close()
