"""The one CSV writer of every file a user opens (map selections, study exports): a text cell a spreadsheet
would read as a formula ("=HYPERLINK(...)", "+", "-", "@", a leading tab or CR) gets OWASP's leading apostrophe,
so a participant's answer or a corpus title is shown, never run. Numbers are written as numbers."""
from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what spreadsheets read as the start of a formula


def spreadsheet_safe(value: str) -> str:
    """`value` as a spreadsheet shows it, never evaluates it (OWASP's advice: a leading apostrophe)."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def csv_text(fieldnames: Sequence[str], rows: Iterable[Mapping[str, object]]) -> str:
    """A header, then one line per row (every key must be a field); text cells made spreadsheet-safe."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(fieldnames), lineterminator="\n", extrasaction="raise")
    writer.writeheader()
    writer.writerows({key: spreadsheet_safe(value) if isinstance(value, str) else value
                      for key, value in row.items()} for row in rows)
    return out.getvalue()
