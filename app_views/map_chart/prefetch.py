"""The maps' labelled points asked for early: a page that knows the addresses of the layers its maps will show (the
same as on its last run, or as another reader's) says so before it works the maps out, in a small script that starts
each fetch at once (app_views/page_script.py). The browser then has the points by the time the map components are
mounted, instead of starting to fetch them only then. map_chart.js takes a fetch started here
(window.__anMapLayers, by absolute address) before starting its own."""
from __future__ import annotations

from collections.abc import Sequence

from app_views.map_chart.layer_store import address_of, layers_served
from app_views.page_script import run_script

EARLY = 4  # fetches kept for the maps to take: a page has two maps; an unused one goes when a fifth is started
FETCH_EARLY = """const early = window.__anMapLayers = window.__anMapLayers || new Map();
for (const address of data.addresses) {
  const url = new URL(address, window.location.href).href;
  if (early.has(url)) continue;
  early.set(url, fetch(url));
  while (early.size > data.kept) early.delete(early.keys().next().value);
}"""


def early_addresses(names: Sequence[str]) -> list[str]:
    """The addresses of the layers published under `names` (layer_store.publish's `name`) that are still kept;
    none where the server does not serve layers."""
    return [address for name in names if (address := address_of(name))] if layers_served() else []


def prefetch_layers(names: Sequence[str]) -> None:
    """Start fetching, in the page, the layers published under `names` (nothing when none is known)."""
    if addresses := early_addresses(names):
        run_script(FETCH_EARLY, addresses=addresses, kept=EARLY)
