"""The mix, in one module: a seed's default mix (its own aspect spaces, equally weighted, plus "linked from this
article"; a free-text seed's: generic and every aspect space that can encode text, `text_mix`), the mix a reader's
choice makes of it (`effective_mix`), and the changes the mix controls make (`with_spaces`, `with_links_share`).

The app's *your mix* column starts from the default (explore/seed_view.py) and `training evaluate` scores it
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
# Generic similarity's share of the rest: the mix is relevant first (explore/relevant_first.py), and the share was
# chosen with the links share on judged seeds by the column score (docs/training.md, "Relevant first").
DEFAULT_GENERIC_SHARE = 0.6
# A free-text seed has no labels to pick spaces by: generic, which reads the whole text as it is, counts as much as
# in an article's mix (no free text was judged: the share judged for articles is the best evidence there is), and the
# aspect spaces that can encode text share the rest (each adds what it counts as alike).
TEXT_GENERIC_SHARE = DEFAULT_GENERIC_SHARE


def has_links(engine: Neighbourhood) -> bool:
    return engine.corpus.provenance.links != "none"


def weight_names(engine: Neighbourhood) -> list[str]:
    """What the mix can weigh one by one: the seed's links (when the corpus has links), then every space."""
    return ([LINKS_COMPONENT] if has_links(engine) else []) + mixable_spaces(engine)


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


def generic_space_name(engine: Neighbourhood) -> str | None:
    return next((name for name, space in engine.spaces.items() if space.kind == "generic"), None)


def default_mix(engine: Neighbourhood, seed: Article | None, links_share: float = DEFAULT_LINKS_SHARE,
                generic_share: float = DEFAULT_GENERIC_SHARE) -> Blend | None:
    """The seed's own aspect spaces equally, generic at `generic_share` of what the links leave (all of it when the
    seed has no aspect space), plus its links at `links_share` when it has some; nothing for a free-text seed,
    which has neither labels nor links."""
    if seed is None or not engine.spaces:
        return None
    names = seed_aspect_spaces(engine, seed)
    generic = generic_space_name(engine)
    linked = has_links(engine) and any(i in engine.corpus and i != seed.id for i in seed.links)
    return weighted_mix(names, generic, generic_share, links_share if linked else 0.0)


def weighted_mix(names: Sequence[str], generic: str | None, generic_share: float, links_share: float) -> Blend | None:
    """`links_share` for the links, generic at `generic_share` of the rest, `names` sharing what is left equally
    (all of it to generic, or to `names`, when the other is missing)."""
    if not names or generic is None or not generic_share:
        return compose(names or ([generic] if generic else []), links_share)
    rest = 1 - links_share
    share = min(max(float(generic_share), 0.0), 1.0)
    weights = {LINKS_COMPONENT: round(links_share, 2)} if links_share else {}
    weights |= {name: round(rest * (1 - share) / len(names), 2) for name in names}
    weights[generic] = round(rest * share, 2)
    weights = {name: weight for name, weight in weights.items() if weight > 0}
    return Blend.of(weights) if weights else None


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
    generic = next((name for name in names if engine.spaces[name].kind == "generic"), None)
    return weighted_mix([name for name in names if engine.spaces[name].kind == "aspect"], generic, generic_share, 0.0)


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
