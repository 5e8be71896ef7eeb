"""The controls of the reader's mix as the explore panel draws them, above the columns: one pill per space that
can be mixed (on for the spaces in the mix), how much "linked from this article" counts (article seeds of a corpus
with links), and, folded away, each weight on its own. The mix itself is explore/mix.py's, as the seed view
(explore/seed_view.py) hands it over; until the reader changes it, the seed's own aspects."""
from __future__ import annotations

from app_views.view_state import MAX_WEIGHT
from explore.mix import links_share
from explore.query import Blend
from explore.ranking import LINKS_COMPONENT
from explore.seed_view import SeedView

WEIGHT_STEP = 0.05
SPACES_HELP = ("The “your mix” column ranks by similarity in the spaces picked here. It starts from the seed's own "
               "aspects.")
LINKS_LABEL = "How much “linked from this article” counts"
LINKS_HELP = ("Link-based and text-based relatedness complement each other: 0 ranks by similarity alone, 1 by the "
              "article's own links alone; in between, a linked article gets this much on top of its similarity.")
WEIGHTS_LABEL = "Your mix: each weight"


def mix_data(view: SeedView | None, chosen: Blend | None) -> dict | None:
    """The controls for the view's mix (`chosen`: the reader's own, whose spaces another corpus has are kept for it);
    None when there is nothing to mix (no engine, no space)."""
    if view is None or not view.mixable:
        return None
    mix, names = view.mix, list(view.weighable)
    weights = mix.as_dict() if mix else {}
    return {
        "label": ("Your mix: pick the spaces that matter" if not mix
                  else "Your mix: the spaces that matter for this seed" if view.seed is not None
                  else "Your mix: generic and the aspect spaces, for free text"),
        "help": SPACES_HELP,
        "spaces": [{"name": name, "on": bool(mix and name in mix.names)} for name in view.mixable],
        "links": ({"label": LINKS_LABEL, "help": LINKS_HELP, "share": round(links_share(mix), 2)}
                  if view.links_weighable else None),
        "weights_label": WEIGHTS_LABEL,
        "weights": [{"name": name, "label": "links (linked from this article)" if name == LINKS_COMPONENT else name,
                     "value": round(min(weights.get(name, 0.0), MAX_WEIGHT), 2)} for name in names],
        "max_weight": MAX_WEIGHT,
        "step": WEIGHT_STEP,
        "elsewhere": [name for name in (chosen.names if chosen else []) if name not in names],
    }
