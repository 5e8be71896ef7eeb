"""The breadcrumb trail of visited seeds, kept like a browser's history: back and jump move along it
and keep the seeds after (forward goes there again); a new seed from an earlier place drops them. A seed the
URL brings (the browser's own Back and Forward) moves along the trail to its crumb, so both are one history."""
from __future__ import annotations

from dataclasses import dataclass, field

MAX_TRAIL = 12


@dataclass
class Trail:
    """Seeds visited in order and where the reader stands (`position`): seeds after it are the
    forward part. Kept per user (session state)."""

    seeds: list[str] = field(default_factory=list)
    limit: int = MAX_TRAIL
    position: int = -1  # index of the current seed; -1: no seed yet

    @property
    def current(self) -> str | None:
        return self.seeds[self.position] if self.seeds else None

    @property
    def forward_part(self) -> list[str]:
        """The seeds after the current one (greyed in the trail bar; forward reaches them)."""
        return self.seeds[self.position + 1:]

    def visit(self, seed: str) -> None:
        """Make `seed` current. The current seed again changes nothing; the next seed moves forward;
        any other seed drops the forward part and ends the trail, as a browser does."""
        if seed == self.current:
            return
        if self.forward_part[:1] == [seed]:
            self.position += 1
            return
        del self.seeds[self.position + 1:]
        self.seeds.append(seed)
        del self.seeds[: max(0, len(self.seeds) - self.limit)]
        self.position = len(self.seeds) - 1

    def arrive(self, seed: str) -> None:
        """Make `seed` current as a URL brings it (the browser's Back or Forward, a reload): when the trail has it,
        stand on its crumb, the nearest to the current one (the one behind on a tie), and keep the seeds after,
        so the browser's history and the trail stay one; a seed not on the trail is visited."""
        if seed == self.current:
            return
        places = [index for index, visited in enumerate(self.seeds) if visited == seed]
        if not places:
            self.visit(seed)
            return
        self.position = min(places, key=lambda index: (abs(index - self.position), index > self.position))

    def back(self) -> str | None:
        """Step to the previous seed and return it (None at the start); the seeds after stay."""
        if self.position < 1:
            return None
        self.position -= 1
        return self.current

    def forward(self) -> str | None:
        """Step to the next seed and return it (None at the end)."""
        if not self.forward_part:
            return None
        self.position += 1
        return self.current

    def jump(self, index: int) -> str:
        """Stand on the seed at `index` of the trail; the seeds after it stay."""
        self.position = max(0, min(index, len(self.seeds) - 1))
        return self.current
