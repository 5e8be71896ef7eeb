"""Regenerate the shipped maps (assets/maps/vital/): the t-SNE map of the Maps page's default sample (the whole
corpus, 10,033 articles: explore.maps.DEFAULT_SAMPLE) under the default parameters, for every shipped space of the
vital corpus, and the UMAP map of the default pair of spaces (the Maps page's first left and right), each projection
with a manifest that lets the app verify them (explore/shipped_maps.py). Run after scripts/build_vital_spaces.sh:

    python scripts/build_vital_maps.py [--projection tsne|umap|all] [--check]

Deterministic: one thread per map and a fixed random state give the same bytes on the same machine and
library versions; --check recomputes and exits 1 when a shipped file differs from what it would write.
t-SNE: about 30 s a space on two cores (one thread each, FFT gradients, Annoy neighbours); UMAP: a few minutes a
space (umap-learn on one thread, the page's settings).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explore.corpus import open_corpus  # noqa: E402
from explore.map_umap import UmapParams, umap_layout  # noqa: E402
from explore.maps import DEFAULT_SAMPLE, ProjectionParams, projection_key, select_sample, tsne  # noqa: E402
from explore.shipped_maps import SHIPPED_MAPS_DIR, write_shipped_maps  # noqa: E402
from explore.spaces import spaces_for  # noqa: E402
from explore.spaces.registry import SHIPPED_SPACES_DIR  # noqa: E402
from explore.spaces.store import MANIFEST_FILE  # noqa: E402

CORPUS = "vital"
RANDOM_STATE = 0  # the Maps page's sample (app_views.columns.map_plan → select_sample's default)
UMAP_SPACES = ("generic", "country")  # the Maps page's default pair (app_pages/maps.py: generic, then the first other)


def build(directory: Path, projection: str = "tsne") -> Path:
    corpus = open_corpus(CORPUS)
    registry = spaces_for(corpus, progress=False)
    names = sorted(p.parent.name for p in (SHIPPED_SPACES_DIR / CORPUS).glob(f"*/{MANIFEST_FILE}"))
    if projection == "umap":
        names = [name for name in names if name in UMAP_SPACES]
    sample = select_sample(len(corpus), DEFAULT_SAMPLE, random_state=RANDOM_STATE)
    params = ProjectionParams() if projection == "tsne" else UmapParams()
    maps = {}
    for name in names:
        space = registry.open(name)
        vectors = space.embeddings_[sample.base]
        # one thread: the same sums each run
        coords, method = tsne(vectors, params, n_jobs=1) if projection == "tsne" else umap_layout(vectors, params)
        maps[name] = (projection_key(space), coords, method)
        print(f"{projection} {name}: {projection_key(space)} ({method})", file=sys.stderr)
    return write_shipped_maps(directory, CORPUS, sample, RANDOM_STATE, params, maps, projection)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--projection", choices=("tsne", "umap", "all"), default="all")
    parser.add_argument("--check", action="store_true", help="recompute and compare with the shipped files")
    args = parser.parse_args()
    projections = ("tsne", "umap") if args.projection == "all" else (args.projection,)
    shipped = SHIPPED_MAPS_DIR / CORPUS
    if not args.check:
        for projection in projections:
            print(build(shipped, projection))
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        for projection in projections:
            build(Path(scratch), projection)
        differing = [p.name for p in Path(scratch).iterdir()
                     if not (shipped / p.name).is_file() or (shipped / p.name).read_bytes() != p.read_bytes()]
    print("identical" if not differing else f"differ: {', '.join(sorted(differing))}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
