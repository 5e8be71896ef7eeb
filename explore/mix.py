"""A seed's default mix: its own aspect spaces, equally weighted, plus "linked from this article"; a free-text
seed's: generic and every aspect space that can encode text (`text_mix`).

The app's *your mix* column starts from it (app_views/mix.py) and `training evaluate` scores it
(`default-mix` rows, training/rankings.py), so both rank with the same mix.
"""
from __future__ import annotations

from typing import Sequence

from explore.corpus.model import Article
from explore.errors import AspectNavError
from explore.neighbours import Neighbourhood
from explore.query import Blend
from explore.ranking import LINKS_COMPONENT

# Weight of "linked from this article" in the default mix of a seed with links, chosen by measurement
# (docs/training.md, "The links share of your mix"; assets/reports/vital-explore.md): on vital's test split
# every links share costs nDCG@10 on the seed's own aspects (0: 0.846, 0.05: 0.841, 0.1: 0.832, 0.3: 0.733,
# corpus pool), and 0.05 is the largest share that costs under 1% of the best in both pools; it still
# brings the seed's links into the column (Links@10 0.077 against 0.043 without).
DEFAULT_LINKS_SHARE = 0.05
# A free-text seed has no labels to pick spaces by: generic, which reads the whole text as it is, counts this much,
# and the aspect spaces that can encode text share the rest (each adds what it counts as alike).
TEXT_GENERIC_SHARE = 0.5


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


def compose(names: Sequence[str], links_share: float) -> Blend | None:
    """`links_share` for "linked from this article", the rest shared equally by `names` (2 decimals)."""
    share = min(max(float(links_share), 0.0), 1.0)
    weights = {LINKS_COMPONENT: round(share, 2)} if share else {}
    weights |= {name: round((1 - share) / len(names), 2) for name in names} if names else {}
    weights = {name: weight for name, weight in weights.items() if weight > 0}
    return Blend.of(weights) if weights else None


def default_mix(engine: Neighbourhood, seed: Article | None,
                links_share: float = DEFAULT_LINKS_SHARE) -> Blend | None:
    """The seed's own aspect spaces (generic when it has none), plus its links at `links_share` when it
    has some; nothing for a free-text seed, which has neither labels nor links."""
    if seed is None or not engine.spaces:
        return None
    names = seed_aspect_spaces(engine, seed) or [name for name in engine.spaces if engine.spaces[name].kind == "generic"]
    linked = has_links(engine) and any(i in engine.corpus and i != seed.id for i in seed.links)
    return compose(names, links_share if linked else 0.0)


def encodes_text(engine: Neighbourhood, name: str) -> bool:
    """Whether the space `name` has an encoder for a typed text (a space stored without one has not)."""
    try:
        engine.spaces[name].load_encoder()  # cheap: the model loads on the first encode
    except AspectNavError:
        return False
    return True


def text_mix(engine: Neighbourhood, generic_share: float = TEXT_GENERIC_SHARE) -> Blend | None:
    """The default mix of a free-text seed: generic at `generic_share`, the aspect spaces that can encode text
    sharing the rest equally (all of it to either when the other is missing); None when no space can encode text."""
    names = [name for name in mixable_spaces(engine)
             if engine.spaces[name].kind in ("generic", "aspect") and encodes_text(engine, name)]
    generic = [name for name in names if engine.spaces[name].kind == "generic"]
    aspects = [name for name in names if engine.spaces[name].kind == "aspect"]
    if not generic or not aspects:
        return compose(generic or aspects, 0.0)
    share = min(max(float(generic_share), 0.0), 1.0)
    weights = {name: round(share / len(generic), 2) for name in generic}
    weights |= {name: round((1 - share) / len(aspects), 2) for name in aspects}
    return Blend.of({name: weight for name, weight in weights.items() if weight > 0})
