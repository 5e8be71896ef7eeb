"""Growing waits after wrong passwords, per browser session, per client address and server-wide, so the
results password cannot be guessed at machine speed.

One throttle serves a whole server process (every session shares it, under a lock): opening a new tab
or session does not reset a client's count, and the server-wide count catches a guesser who opens a new
session every few tries from an address the server cannot see (None on loopback, or behind a runtime that
hides it). The caller refuses an attempt while `admit` answers a wait
instead of sleeping, so no server thread is held for minutes.
"""
from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ThrottleConfig:
    """`free_attempts` wrong passwords cost nothing (typos); each later one waits `first_delay_s`,
    then `growth` times longer, up to `max_delay_s`. A key quiet for `forget_after_s` starts afresh.
    Server-wide, wrong passwords from anywhere get `server_free_attempts` free ones before the same
    growing waits apply to everyone; the right password does not clear that count (a guesser's failures
    are not forgiven because the researcher logged in), only `forget_after_s` without a failure does."""

    free_attempts: int = 3
    first_delay_s: float = 2.0
    growth: float = 2.0
    max_delay_s: float = 300.0
    forget_after_s: float = 3600.0
    server_free_attempts: int = 10

    def delay_after(self, failures: int, free_attempts: int | None = None) -> float:
        """The wait imposed by the `failures`-th wrong password in a row (`free_attempts` by default)."""
        beyond = failures - (self.free_attempts if free_attempts is None else free_attempts)
        if beyond <= 0:
            return 0.0
        return min(self.max_delay_s, self.first_delay_s * self.growth ** min(beyond - 1, 64))


SERVER_KEY = "server"  # the count every wrong password adds to, whoever sends it


@dataclass(frozen=True)
class LoginSource:
    """Who is trying: `session` identifies one browser session; `client` is the remote address, or
    None where the server cannot tell (local use, or a runtime that does not expose it), in which
    case only the session is throttled. Behind a reverse proxy every user shares the proxy's
    address, so they share one count: a guesser then locks the page for everyone, which fails safe."""

    session: str
    client: str | None = None

    def counted_as(self) -> tuple[str, ...]:
        """The counts a wrong password adds to: the session's and the server's always, the client's when known."""
        return (f"session:{self.session}",) + ((f"client:{self.client}",) if self.client else ()) + (SERVER_KEY,)

    def describe(self) -> str:
        """For the log: the address as is, the session id only as a short digest."""
        digest = hashlib.sha256(self.session.encode()).hexdigest()[:8]
        return f"client={self.client or 'unknown'} session={digest}"


@dataclass
class _Record:
    failures: int = 0
    last_failure: float = 0.0
    blocked_until: float = 0.0


class LoginThrottle:
    """Counts consecutive wrong passwords per key; thread-safe. `clock` is injectable for tests."""

    def __init__(self, config: ThrottleConfig = ThrottleConfig(), clock: Callable[[], float] = time.monotonic):
        self.config = config
        self._clock = clock
        self._records: dict[str, _Record] = {}
        self._lock = threading.Lock()

    def admit(self, source: LoginSource) -> float:
        """Seconds `source` must still wait (0: check the password now); a refusal is logged, not counted."""
        now = self._clock()
        with self._lock:
            waits = {key: self._records[key].blocked_until - now for key in source.counted_as() if key in self._records}
        wait = max(waits.values(), default=0.0)
        if wait > 0:
            where = " server-wide" if waits.get(SERVER_KEY, 0.0) >= wait else ""
            log.warning("study results login refused%s: %s must wait %.0f s", where, source.describe(), math.ceil(wait))
        return max(wait, 0.0)

    def failed(self, source: LoginSource) -> float:
        """Count a wrong password for the session and the client; returns the wait it imposes."""
        now = self._clock()
        with self._lock:
            self._forget_quiet(now)
            counts = []
            for key in source.counted_as():
                record = self._records.setdefault(key, _Record())
                record.failures += 1
                record.last_failure = now
                free = self.config.server_free_attempts if key == SERVER_KEY else None
                record.blocked_until = max(record.blocked_until, now + self.config.delay_after(record.failures, free))
                if key != SERVER_KEY:
                    counts.append(record.failures)
            server = self._records[SERVER_KEY]
            wait = max(self._records[key].blocked_until for key in source.counted_as()) - now
            server_wait = server.blocked_until - now
        log.warning("study results login failed: %s failures=%d server_failures=%d", source.describe(), max(counts),
                    server.failures)
        if wait > 0:
            where = " server-wide" if server_wait >= wait else ""
            log.warning("study results login locked%s: %s for %.0f s", where, source.describe(), math.ceil(wait))
        return wait

    def succeeded(self, source: LoginSource) -> None:
        """The right password clears the session's and the client's counts, not the server-wide one."""
        with self._lock:
            for key in source.counted_as():
                if key != SERVER_KEY:
                    self._records.pop(key, None)

    def _forget_quiet(self, now: float) -> None:
        # Bounded memory: sessions and clients that stopped trying drop out.
        quiet = [key for key, record in self._records.items()
                 if now - record.last_failure > self.config.forget_after_s and record.blocked_until <= now]
        for key in quiet:
            del self._records[key]
