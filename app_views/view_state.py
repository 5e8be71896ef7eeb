"""One user's explore view — corpus, seed, trail, k, blend — as one object, and how it follows the URL.

Streamlit-free: the app keeps one `ExploreView` per user session (app_views/view_session.py) and its
widgets write to it; everything here can be tested without a browser.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from app_views.trail import Trail
from app_views.url_state import (DEFAULT_K, DEFAULT_PER_ROW, MAP_PARAMS, PER_ROW_RANGE, ViewState, parse_query,
                                  seed_param, to_query)
from explore.corpus.model import Article, Corpus
from explore.errors import AspectNavError
from explore.query import Blend

DEFAULT_CORPUS = "vital"
MAX_WEIGHT = 1.0  # the blend sliders' range is 0..MAX_WEIGHT
CORPUS_PARAM = "corpus"  # kept in the URL by the corpus picker, not by the view's seed/k/blend mirror


def fit_to_sliders(blend: Blend | None) -> tuple[Blend | None, list[str]]:
    """`blend` with every weight above the sliders' maximum lowered to it, and a note saying which."""
    if blend is None or all(weight <= MAX_WEIGHT for _, weight in blend.weights):
        return blend, []
    over = [f"{name}:{weight:g}" for name, weight in blend.weights if weight > MAX_WEIGHT]
    fitted = Blend(tuple((name, min(weight, MAX_WEIGHT)) for name, weight in blend.weights))
    return fitted, [f"blend weight {', '.join(over)} lowered to {MAX_WEIGHT:g}: the sliders weigh each space "
                    f"from 0 to {MAX_WEIGHT:g} (blend is now {fitted})."]


@dataclass
class ExploreView:
    """What one user is looking at. Seeds and the trail are ids of `corpus`; k and the blend are not."""

    corpus: str = DEFAULT_CORPUS
    seed_id: str | None = None
    text: str | None = None  # a free-text seed (only when there is no article seed)
    text_mode: bool = False  # the seed picker shows the free-text box (even while it is empty)
    missing_seed: str | None = None  # a URL's seed that names no article: the picker offers close titles
    trail: Trail = field(default_factory=Trail)
    k: int = DEFAULT_K
    blend: Blend | None = None
    per_row: int = DEFAULT_PER_ROW  # columns per row on Explore
    read_more: bool = False  # Wikipedia's Read more column shown beside the others
    url_written: dict[str, str] | None = None  # the query last written; any other one was loaded or typed

    # --- the seed and the trail ---------------------------------------------------------------------

    def set_seed(self, article_id: str | None, text: str | None = None, from_url: bool = False) -> None:
        """Make an article (or, with no article, a free text) the seed; an article joins the trail (`from_url`:
        the URL brought it, e.g. the browser's Back, so the trail moves to its crumb when it has one)."""
        self.seed_id = article_id or None
        self.text = None if article_id else (text or None)
        self.missing_seed = None
        if article_id:
            self.text_mode = False
            if from_url:
                self.trail.arrive(article_id)
            else:
                self.trail.visit(article_id)
        elif text:
            self.text_mode = True

    def switch_mode(self, text_mode: bool) -> None:
        """Article ↔ free text: nothing of the other mode stays on screen. Free text starts empty;
        articles come back to the trail's current seed (if any)."""
        if text_mode == self.text_mode:
            return
        self.text_mode = text_mode
        self.seed_id = None if text_mode else self.trail.current
        self.text = self.missing_seed = None

    def back(self) -> None:
        """Return to the previous seed of the trail (nothing happens at its start); forward returns."""
        previous = self.trail.back()
        if previous:
            self.set_seed(previous)

    def forward(self) -> None:
        """Go to the next seed of the trail again (after back or a jump)."""
        following = self.trail.forward()
        if following:
            self.set_seed(following)

    def jump(self, index: int) -> None:
        """Go to the trail's seed at `index`; the seeds after it stay in the trail (forward reaches them)."""
        self.set_seed(self.trail.jump(index))

    def seed_article(self, corpus: Corpus) -> Article | None:
        return corpus[self.seed_id] if self.seed_id and self.seed_id in corpus else None

    # --- k, blend, corpus ----------------------------------------------------------------------------

    def set_weight(self, space: str, weight: float) -> None:
        """One blend slider moved: a zero weight drops the space; no weight left means no blend."""
        weights = (self.blend.as_dict() if self.blend else {}) | {space: float(weight)}
        positive = {name: value for name, value in weights.items() if value > 0}
        self.blend = Blend.of(positive) if positive else None

    def switch_corpus(self, name: str) -> None:
        """Seeds and trails are ids of one corpus: another corpus starts without them (k and blend stay)."""
        if name == self.corpus:
            return
        self.corpus = name
        self.seed_id = self.text = self.missing_seed = None
        self.trail = Trail()
        self.url_written = None

    # --- the URL -------------------------------------------------------------------------------------

    def adopt(self, params: Mapping[str, str], corpus: Corpus) -> list[str]:
        """Take seed, k, columns per row and blend from a URL the user loaded or typed (not one this view wrote);
        returns what could not be used, in words. A URL without them leaves the view as it is."""
        query = {key: value for key, value in params.items() if key != CORPUS_PARAM and key not in MAP_PARAMS}
        if not query or query == self.url_written:
            return []
        state = parse_query(query)
        self.k, self.per_row, self.read_more = state.k, state.per_row, state.read_more
        self.blend, problems = fit_to_sliders(state.blend)
        problems = state.problems + problems
        if state.seed:
            try:
                self.set_seed(corpus.find(state.seed).id, from_url=True)
            except AspectNavError:  # unknown or ambiguous title: the seed picker offers the closest ones
                self.set_seed(None)
                self.text_mode, self.missing_seed = False, state.seed
        else:
            self.set_seed(None, state.text)
        self.url_written = query
        return problems

    def url_query(self, corpus: Corpus, seed_id: str | None = None) -> dict[str, str]:
        """The URL's seed (a title when unique, else the id), text, k, columns per row and blend for this view — or
        for this view with `seed_id` as its seed (a link to another article)."""
        seed_id = seed_id or self.seed_id
        text = None if seed_id else self.text
        seed = seed_param(corpus.ids_by_title, seed_id, corpus[seed_id].title) if seed_id in corpus else None
        if seed is None and text is None:  # kept until the reader picks a title, so a reload asks again
            seed = self.missing_seed
        return to_query(ViewState(seed=seed, text=text, k=self.k, blend=self.blend, per_row=self.per_row,
                                  read_more=self.read_more))
