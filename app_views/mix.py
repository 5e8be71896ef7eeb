"""The reader's own mix for one seed: which spaces, and how much "linked from this article", rank the
"your mix" column. Until the reader changes it, the mix is the seed's own aspects (plus its links).

The default mix itself is explore/mix.py's (the evaluation scores the same one). Streamlit-free: the mix
widget (app_views/view_widgets.py) reads and writes it through these functions.
"""
from __future__ import annotations

from typing import Sequence

from explore.corpus.model import Article
from explore.mix import (DEFAULT_GENERIC_SHARE, compose, default_mix, generic_space_name, has_links, mixable_spaces,
                         text_mix, weighted_mix)
from explore.neighbours import Neighbourhood
from explore.query import Blend
from explore.ranking import LINKS_COMPONENT


def absent_aspect_spaces(engine: Neighbourhood, seed: Article) -> list[str]:
    """Aspect, union and intersection spaces built on an aspect `seed` has no label of, in mix order."""
    lacking = set(engine.spaces_seed_lacks(seed))
    return [name for name in mixable_spaces(engine) if name in lacking]


def links_share(blend: Blend | None) -> float:
    return blend.normalised().get(LINKS_COMPONENT, 0.0) if blend else 0.0


def effective_mix(engine: Neighbourhood, seed: Article | None, chosen: Blend | None) -> Blend | None:
    """The mix the column ranks by: the reader's (`chosen`) or the seed's default (a free-text seed's: generic
    and the aspect spaces that can encode text), restricted to what this corpus and seed can weigh (other
    corpora's spaces stay in the view; links need an article)."""
    mix = chosen if chosen is not None else (default_mix(engine, seed) if seed is not None else text_mix(engine))
    if mix is None:
        return None
    usable = set(engine.spaces) | ({LINKS_COMPONENT} if seed is not None and has_links(engine) else set())
    here = {name: weight for name, weight in mix.weights if name in usable}
    return Blend.of(here) if here else None


def shown_mix(engine: Neighbourhood | None, seed: Article | None, chosen: Blend | None) -> Blend | None:
    """The mix Explore shows and ranks "your mix" by: None without an engine or spaces to mix."""
    if engine is None or not engine.spaces:
        return None
    return effective_mix(engine, seed, chosen)


def with_spaces(engine: Neighbourhood, mix: Blend | None, names: Sequence[str]) -> Blend | None:
    """`mix` with its spaces replaced by `names`, its links share kept; None when empty. Generic, when picked beside
    other spaces, keeps its share of what the links leave (the default's when the mix had none: a mix is relevant
    first); the other spaces share the rest equally."""
    chosen = [n for n in mixable_spaces(engine) if n in names]
    generic = generic_space_name(engine)
    if generic not in chosen or len(chosen) == 1:
        return compose(chosen, links_share(mix))
    weights = mix.normalised() if mix else {}
    rest = 1 - weights.get(LINKS_COMPONENT, 0.0)
    share = weights[generic] / rest if generic in weights and rest > 0 else DEFAULT_GENERIC_SHARE
    return weighted_mix([n for n in chosen if n != generic], generic, share, links_share(mix))


def with_links_share(engine: Neighbourhood, seed: Article | None, mix: Blend | None, share: float) -> Blend | None:
    """`mix` with "linked from this article" at `share`, its spaces keeping their proportions (the
    seed's default spaces when it had none)."""
    spaces = {n: w for n, w in (mix.weights if mix else ()) if n != LINKS_COMPONENT}
    if not spaces:
        fallback = default_mix(engine, seed)
        spaces = {n: w for n, w in (fallback.weights if fallback else ()) if n != LINKS_COMPONENT}
    total = sum(spaces.values())
    share = min(max(float(share), 0.0), 1.0)
    weights = {LINKS_COMPONENT: round(share, 2)} | {n: round((1 - share) * w / total, 2) for n, w in spaces.items()}
    weights = {n: w for n, w in weights.items() if w > 0}
    return Blend.of(weights) if weights else None
