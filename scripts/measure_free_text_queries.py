"""Short free-text queries placed by each shipped full space's free-text encoder, against where the fine-tuned encoder
placed them: nn@10 overlap on held-out articles' titles and descriptions (training/full_spaces.py QUERIES_RULE).

    python scripts/measure_free_text_queries.py --packed DIR country occupation union intersection

DIR is what `scripts/ship_full_spaces.py pack` wrote where the spaces trained (a GPU run or the CPU rebuild): it holds each space's query
vectors from its fine-tuned encoder, which nothing here can compute (the encoders are not shipped).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explore.corpus import open_corpus  # noqa: E402
from explore.encoders import load_encoder  # noqa: E402
from explore.spaces.registry import SHIPPED_SPACES_DIR  # noqa: E402
from explore.spaces.store import read_training_record  # noqa: E402
from training.distilled_head import neighbour_overlap  # noqa: E402
from training.full_spaces import HELD_OUT_SHORT_QUERIES, held_out_queries, read_packed, short_queries  # noqa: E402
from training.splits import split_by_article  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="vital")
    parser.add_argument("--packed", type=Path, required=True)
    parser.add_argument("--queries", type=int, default=HELD_OUT_SHORT_QUERIES,
                        help="held-out queries drawn (seeded)")
    parser.add_argument("spaces", nargs="+")
    args = parser.parse_args()
    corpus = open_corpus(args.corpus)
    queries = short_queries(corpus)
    for name in args.spaces:
        directory = SHIPPED_SPACES_DIR / corpus.name / name
        split = read_training_record(directory)["split"]
        test = np.asarray(split_by_article(corpus, seed=split["seed"], test_fraction=split["test_fraction"]).test)
        drawn = held_out_queries(test, args.queries)
        full_corpus, full_queries = read_packed(args.packed / f"{name}.npz")
        placed = load_encoder(f"dir:{directory / 'encoder'}").encode([queries[i] for i in drawn], progress=False)
        placed = placed / np.linalg.norm(placed, axis=1, keepdims=True)
        print(f"{name}: short queries nn@10 {neighbour_overlap(placed, full_queries[drawn], full_corpus):.3f} "
              f"on {len(drawn)} held-out titles and descriptions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
