"""A checksum a JSON record carries over itself, so a flipped byte in a card or manifest is caught on load.

The digest covers the parsed record (canonical JSON, the digest's own key left out), so layout never matters and
any change to a value, a key or the digest itself makes the record refuse to load.
"""
from __future__ import annotations

import hashlib
import json
import math
import numbers

SEAL_KEY = "record_sha256"


def json_plain(value):
    """`value` as plain JSON data: numpy numbers as Python ones, NaN and infinities as None (null: "could not be
    computed", e.g. a metric of a corpus too small for it), tuples as lists. Anything else is left to json."""
    if isinstance(value, dict):
        return {key: json_plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_plain(item) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if hasattr(value, "tolist") and not isinstance(value, numbers.Number):  # a numpy array
        return json_plain(value.tolist())
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value) if math.isfinite(value) else None
    return value


def _digest(record: dict) -> str:
    body = {key: value for key, value in record.items() if key != SEAL_KEY}
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def sealed(record: dict) -> dict:
    """`record` (made plain: NaN and infinities as null) with its checksum added under `SEAL_KEY`."""
    plain = json_plain(record)
    return {**plain, SEAL_KEY: _digest(plain)}


def seal_problem(record: dict, known_keys: frozenset[str]) -> str | None:
    """Why `record` cannot be trusted, or None. A record written before seals existed has no `SEAL_KEY` and is
    taken as it is (its data files keep their own checksums); an unknown key is refused either way, so a flip in
    the seal's own name cannot pass the record off as an old one."""
    unknown = sorted(set(record) - known_keys - {SEAL_KEY})
    if unknown:
        return f"it holds unknown keys {', '.join(map(repr, unknown))}"
    if SEAL_KEY not in record:
        return None
    try:
        actual = _digest(record)
    except ValueError as exc:  # NaN or Infinity: never written by us
        return f"it holds a value JSON cannot write back ({exc})"
    if actual != record[SEAL_KEY]:
        return "it does not match the checksum saved in it"
    return None
