"""The breadcrumb trail of visited seeds: visit appends, back pops, jump cuts the trail."""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_TRAIL = 12


@dataclass
class Trail:
    """Seeds visited in order; the last one is the current seed. Kept per user (session state)."""

    seeds: list[str] = field(default_factory=list)
    limit: int = MAX_TRAIL

    @property
    def current(self) -> str | None:
        return self.seeds[-1] if self.seeds else None

    def visit(self, seed: str) -> None:
        """Make `seed` current; visiting the current seed again changes nothing."""
        if seed == self.current:
            return
        self.seeds.append(seed)
        del self.seeds[: max(0, len(self.seeds) - self.limit)]

    def back(self) -> str | None:
        """Drop the current seed and return the previous one (None when there is none)."""
        if len(self.seeds) < 2:
            return None
        self.seeds.pop()
        return self.current

    def jump(self, index: int) -> str:
        """Return to the seed at `index` of the trail, forgetting the ones after it."""
        del self.seeds[index + 1:]
        return self.seeds[index]
