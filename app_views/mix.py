"""The reader's own mix for one seed: which spaces, and how much "linked from this article", rank the
"your mix" column. Until the reader changes it, the mix is the seed's own aspects (plus its links).

Streamlit-free: the mix widget (app_views/view_widgets.py) reads and writes it through these functions.
"""
from __future__ import annotations

from typing import Sequence

from explore.corpus.model import Article
from explore.neighbours import Neighbourhood
from explore.query import Blend
from explore.ranking import LINKS_COMPONENT

# Weight of "linked from this article" in the default mix of a seed with links: enough that a linked,
# similar article comes first, not so much that an unrelated link beats a close match.
DEFAULT_LINKS_SHARE = 0.3


def has_links(engine: Neighbourhood) -> bool:
    return engine.corpus.provenance.links != "none"


def mixable_spaces(engine: Neighbourhood) -> list[str]:
    """Space names a mix can weigh: aspect spaces first, then union/intersection, generic last."""
    order = {"aspect": 0, "union": 1, "intersection": 2, "space": 3, "generic": 4}
    return sorted(engine.spaces, key=lambda name: (order.get(engine.spaces[name].kind, 3), name))


def seed_aspect_spaces(engine: Neighbourhood, seed: Article) -> list[str]:
    """Aspect spaces whose aspect `seed` has a label of, in mix order."""
    lacking = set(engine.spaces_seed_lacks(seed))
    return [name for name in mixable_spaces(engine) if engine.spaces[name].kind == "aspect" and name not in lacking]


def absent_aspect_spaces(engine: Neighbourhood, seed: Article) -> list[str]:
    """Aspect, union and intersection spaces built on an aspect `seed` has no label of, in mix order."""
    lacking = set(engine.spaces_seed_lacks(seed))
    return [name for name in mixable_spaces(engine) if name in lacking]


def compose(names: Sequence[str], links_share: float) -> Blend | None:
    """`links_share` for "linked from this article", the rest shared equally by `names` (2 decimals)."""
    share = min(max(float(links_share), 0.0), 1.0)
    weights = {LINKS_COMPONENT: round(share, 2)} if share else {}
    weights |= {name: round((1 - share) / len(names), 2) for name in names} if names else {}
    weights = {name: weight for name, weight in weights.items() if weight > 0}
    return Blend.of(weights) if weights else None


def links_share(blend: Blend | None) -> float:
    return blend.normalised().get(LINKS_COMPONENT, 0.0) if blend else 0.0


def default_mix(engine: Neighbourhood, seed: Article | None) -> Blend | None:
    """The seed's own aspect spaces (generic when it has none), plus its links when it has some;
    nothing for a free-text seed, which has neither labels nor links."""
    if seed is None or not engine.spaces:
        return None
    names = seed_aspect_spaces(engine, seed) or [name for name in engine.spaces if engine.spaces[name].kind == "generic"]
    linked = has_links(engine) and any(i in engine.corpus and i != seed.id for i in seed.links)
    return compose(names, DEFAULT_LINKS_SHARE if linked else 0.0)


def effective_mix(engine: Neighbourhood, seed: Article | None, chosen: Blend | None) -> Blend | None:
    """The mix the column ranks by: the reader's (`chosen`) or the seed's default, restricted to what
    this corpus and seed can weigh (other corpora's spaces stay in the view; links need an article)."""
    mix = chosen if chosen is not None else default_mix(engine, seed)
    if mix is None:
        return None
    usable = set(engine.spaces) | ({LINKS_COMPONENT} if seed is not None and has_links(engine) else set())
    here = {name: weight for name, weight in mix.weights if name in usable}
    return Blend.of(here) if here else None


def with_spaces(engine: Neighbourhood, mix: Blend | None, names: Sequence[str]) -> Blend | None:
    """`mix` with its spaces replaced by `names` (equal weights), its links share kept; None when empty."""
    return compose([n for n in mixable_spaces(engine) if n in names], links_share(mix))


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
