"""A base model's linear or embedding module plus a low-rank change of its weight (weight_delta.py): the change runs
as two thin products, so the base weight stays shared and nothing of the module's size is materialised."""
from __future__ import annotations

import torch
from torch.nn import functional as F


class LowRankChange(torch.nn.Module):
    """`base` (nn.Linear or nn.Embedding) with `up @ down` added to its weight."""

    def __init__(self, base: torch.nn.Module, up: torch.Tensor, down: torch.Tensor):
        super().__init__()
        if not isinstance(base, (torch.nn.Linear, torch.nn.Embedding)):
            raise TypeError(f"a low-rank change applies to a linear or embedding module, not {type(base).__name__}")
        self.base = base
        self.register_buffer("up", up)
        self.register_buffer("down", down)

    @property
    def weight(self) -> torch.Tensor:
        """The changed weight, for code that reads a module's weight rather than calling it."""
        return self.base.weight + self.up @ self.down

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if isinstance(self.base, torch.nn.Embedding):
            return self.base(x) + F.embedding(x, self.up) @ self.down
        return self.base(x) + F.linear(F.linear(x, self.down), self.up)
