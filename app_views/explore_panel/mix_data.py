"""The reader's mix as the explore panel draws it, above the columns: one pill per space that can be mixed (on
for the spaces in the mix), how much "linked from this article" counts (article seeds of a corpus with links),
and, folded away, each weight on its own. Until the reader changes it, the mix is the seed's own aspects."""
from __future__ import annotations

from app_views.mix import links_share, shown_mix
from app_views.view_state import MAX_WEIGHT
from explore.corpus.model import Article
from explore.mix import has_links, mixable_spaces
from explore.neighbours import Neighbourhood
from explore.query import Blend
from explore.ranking import LINKS_COMPONENT

WEIGHT_STEP = 0.05
SPACES_HELP = ("The “your mix” column ranks by similarity in the spaces picked here. It starts from the seed's own "
               "aspects.")
LINKS_LABEL = "How much “linked from this article” counts"
LINKS_HELP = ("Link-based and text-based relatedness complement each other: 0 ranks by similarity alone, 1 by the "
              "article's own links alone; in between, a linked article gets this much on top of its similarity.")
WEIGHTS_LABEL = "Your mix: each weight"


def weight_names(engine: Neighbourhood) -> list[str]:
    """What the mix can weigh one by one: the seed's links (when the corpus has links), then every space."""
    return ([LINKS_COMPONENT] if has_links(engine) else []) + mixable_spaces(engine)


def mix_data(engine: Neighbourhood | None, seed: Article | None, chosen: Blend | None) -> dict | None:
    """None when there is nothing to mix (no engine, no space)."""
    mix = shown_mix(engine, seed, chosen)
    if engine is None or not engine.spaces:
        return None
    weights = mix.as_dict() if mix else {}
    names = weight_names(engine)
    return {
        "label": ("Your mix: pick the spaces that matter" if not mix
                  else "Your mix: the spaces that matter for this seed" if seed is not None
                  else "Your mix: generic and the aspect spaces, for free text"),
        "help": SPACES_HELP,
        "spaces": [{"name": name, "on": bool(mix and name in mix.names)} for name in mixable_spaces(engine)],
        "links": ({"label": LINKS_LABEL, "help": LINKS_HELP, "share": round(links_share(mix), 2)}
                  if seed is not None and has_links(engine) else None),
        "weights_label": WEIGHTS_LABEL,
        "weights": [{"name": name, "label": "links (linked from this article)" if name == LINKS_COMPONENT else name,
                     "value": round(min(weights.get(name, 0.0), MAX_WEIGHT), 2)} for name in names],
        "max_weight": MAX_WEIGHT,
        "step": WEIGHT_STEP,
        "elsewhere": [name for name in (chosen.names if chosen else []) if name not in names],
    }
