"""A checksum a JSON record carries over itself, so a flipped byte in a card or manifest is caught on load.

The digest covers the parsed record (canonical JSON, the digest's own key left out), so layout never matters and
any change to a value, a key or the digest itself makes the record refuse to load.
"""
from __future__ import annotations

import hashlib
import json

SEAL_KEY = "record_sha256"


def _digest(record: dict) -> str:
    body = {key: value for key, value in record.items() if key != SEAL_KEY}
    canonical = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def sealed(record: dict) -> dict:
    """`record` with its checksum added under `SEAL_KEY`."""
    return {**record, SEAL_KEY: _digest(record)}


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
