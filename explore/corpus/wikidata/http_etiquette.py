"""The rules Wikimedia services ask of clients: an identifying agent, one request at a time,
honour Retry-After (on 429 and 5xx, within a cap), back off on 5xx, timeouts and wrongly shaped
answers. Shared by the SPARQL and MediaWiki clients."""
from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from explore.errors import AspectNavError

# Wikimedia refuses generic agents (python-urllib, SPARQLWrapper's default); they ask for a
# name and a way to reach the operator. Users should put their own contact in --user-agent.
DEFAULT_USER_AGENT = (
    "AspectNav-corpus-builder/1.0 (https://meta.wikimedia.org/wiki/User-Agent_policy; "
    "run with --user-agent 'name/version (your email or URL)')"
)

T = TypeVar("T")


class FetchError(AspectNavError):
    """A remote service failed in a way retrying will not fix (or retries ran out)."""


class RetryableFailure(Exception):
    """Raised by a request attempt that may succeed later; `retry_after_s` is the server's ask."""

    def __init__(self, reason: str, retry_after_s: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry_after_s = retry_after_s


@dataclass
class Etiquette:
    """How politely to call a service. Tests shrink the waits; the rules stay the same."""

    user_agent: str = DEFAULT_USER_AGENT
    timeout_s: float = 60.0  # the query service's own limit; waiting longer is pointless
    max_attempts: int = 5
    backoff_s: float = 2.0  # first wait after a 5xx or timeout; doubles each time
    max_backoff_s: float = 60.0
    # a server may ask for hours, or send a date far ahead; a build must not hang on it
    max_retry_after_s: float = 60.0
    sleep: Callable[[float], None] = field(default=time.sleep, repr=False)
    on_wait: Callable[[str], None] | None = field(default=None, repr=False)


def parse_retry_after(value: str | None) -> float | None:
    """Retry-After is either delta-seconds or an HTTP date; anything else means 'not given'."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def http_failure(status: int, retry_after: str | None, source: str) -> RetryableFailure | None:
    """429 and 5xx are worth retrying, as late as the server's Retry-After asks; other codes are not."""
    wait = parse_retry_after(retry_after)
    if status == 429:
        return RetryableFailure("HTTP 429 too many requests", wait if wait is not None else 60.0)
    if status >= 500:
        return RetryableFailure(f"HTTP {status} from {source}", wait)
    return None


def call_politely(attempt: Callable[[], T], etiquette: Etiquette, what: str) -> T:
    """Run `attempt` until it succeeds; RetryableFailure → wait (Retry-After, else backoff) and retry."""
    backoff = etiquette.backoff_s
    for number in range(1, etiquette.max_attempts + 1):
        try:
            return attempt()
        except RetryableFailure as failure:
            if number == etiquette.max_attempts:
                raise FetchError(
                    f"Gave up on {what} after {number} attempts: {failure.reason}."
                ) from failure
            asked = ""
            if failure.retry_after_s is not None:
                wait = min(failure.retry_after_s, etiquette.max_retry_after_s)
                if wait < failure.retry_after_s:
                    asked = f" (the server asked for {failure.retry_after_s:g} s)"
            else:
                wait = min(backoff, etiquette.max_backoff_s)
                backoff *= 2
            if etiquette.on_wait is not None:
                etiquette.on_wait(f"{what}: {failure.reason}; retrying in {wait:g} s{asked}")
            etiquette.sleep(wait)
    raise AssertionError("unreachable")  # the loop returns or raises
