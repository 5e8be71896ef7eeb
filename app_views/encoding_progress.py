"""The bar a reader sees while a corpus's space is encoded on its first open: for an imported corpus of
thousands of articles that takes minutes, and a bare spinner would look like a hang."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from app_views.markdown import escape_markdown


def encoding_text(corpus_name: str, done: int, total: int, seconds: float) -> str:
    """'Encoding the 6,000 articles of *mine* (first open only): 1,200 done · 150 articles/s · about 32 s left'."""
    head = f"Encoding the {total:,} articles of *{escape_markdown(corpus_name)}* for its spaces (first open only)"
    if done <= 0 or seconds <= 0:
        return f"{head}: loading the model (a machine's first large encode also times the encoder backends, once)…"
    rate = done / seconds
    left = (total - done) / rate
    eta = f"about {left:.0f} s left" if left < 90 else f"about {left / 60:.0f} min left"
    return f"{head}: {done:,} done · {rate:,.0f} articles/s · {eta if done < total else 'saving'}"


@dataclass
class EncodingProgress:
    """An `EncodeProgress` (explore.encoders.batching) that draws into a Streamlit placeholder."""

    slot: object  # st.empty(): the bar replaces itself on every batch and is cleared by the caller
    corpus_name: str
    started: float | None = field(default=None, init=False)

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if self.started is None or done == 0:
            self.started = now
        self.slot.progress(min(done / max(total, 1), 1.0),
                           text=encoding_text(self.corpus_name, done, total, now - self.started))
