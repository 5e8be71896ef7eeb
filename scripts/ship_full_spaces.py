"""Pack full-mode spaces' vectors where they trained, or ship packed ones into assets/spaces (training/full_spaces.py).

    python scripts/ship_full_spaces.py pack --corpus vital --home $ASPECTNAV_HOME --out DIR country occupation ...
    python scripts/ship_full_spaces.py ship --corpus vital --packed DIR [--head linear] country occupation ...

`pack` also writes each fine-tuned encoder as a low-rank weight delta of MiniLM (DIR/delta-<space>/, --delta-rank and
--delta-embedding-rank; a rank of 0: none), which `ship` ships as the space's free-text encoder; a pack without one ships a distilled head (--head).
`ship` prints each space's figures (free-text nn@10 against the fine-tuned encoder, int8 nn@10) and writes them to
DIR/shipped.json. scripts/build_vital_full_spaces.sh runs both.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explore.corpus import open_corpus  # noqa: E402
from explore.encoders import load_encoder  # noqa: E402
from explore.spaces import spaces_for  # noqa: E402
from explore.spaces.registry import SHIPPED_SPACES_DIR  # noqa: E402
from explore.spaces.store import read_training_record  # noqa: E402
from training.full_spaces import DELTA_EMBEDDING_RANK, DELTA_RANK, pack_full_vectors, read_packed, ship_full_space, short_queries  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    pack = commands.add_parser("pack", help="write each space's vectors and record into --out")
    pack.add_argument("--corpus", default="vital")
    pack.add_argument("--home", type=Path, required=True, help="the data home the full-mode runs trained into")
    pack.add_argument("--out", type=Path, required=True)
    pack.add_argument("--delta-rank", type=int, default=DELTA_RANK, help="the weight delta's rank (0: none)")
    pack.add_argument("--delta-embedding-rank", type=int, default=DELTA_EMBEDDING_RANK,
                      help="its rank for the embedding tables")
    pack.add_argument("spaces", nargs="+")
    ship = commands.add_parser("ship", help="write each packed space and its free-text encoder into the shipped assets")
    ship.add_argument("--corpus", default="vital")
    ship.add_argument("--packed", type=Path, required=True)
    ship.add_argument("--head", default="linear", choices=["linear", "mlp"], help="for a pack without a delta")
    ship.add_argument("--shipped", type=Path, default=None, help="default: assets/spaces/<corpus>")
    ship.add_argument("spaces", nargs="+")
    args = parser.parse_args()
    corpus = open_corpus(args.corpus)
    if args.command == "pack":
        for path in pack_full_vectors(args.home, corpus, args.spaces, args.out, args.delta_rank,
                                      args.delta_embedding_rank):
            print("packed", path)
        return 0
    shipped = args.shipped or SHIPPED_SPACES_DIR / corpus.name
    generic = spaces_for(corpus, progress=False).open("generic").embeddings_
    generic_queries = None
    if not all((args.packed / f"delta-{name}").is_dir() for name in args.spaces):  # a head is distilled from them
        cached = args.packed / "generic_queries.npy"  # the generic vectors of the short queries (a minute of CPU)
        if not cached.exists():
            np.save(cached, np.asarray(load_encoder("minilm").encode(short_queries(corpus), progress=False),
                                       np.float32))
        generic_queries = np.load(cached)
    figures = {}
    for name in args.spaces:
        record = json.loads((args.packed / f"training-{name}.json").read_text())
        record = record.get("training_record", record)
        manifest = json.loads((args.packed / f"manifest-{name}.json").read_text())
        full_corpus, full_queries = read_packed(args.packed / f"{name}.npz")
        delta = args.packed / f"delta-{name}"
        figures[name] = ship_full_space(corpus, name, manifest["kind"], tuple(manifest.get("aspects") or ()), record,
                                        full_corpus, full_queries, generic, generic_queries, shipped,
                                        head_kind=args.head, source=manifest, delta=delta if delta.is_dir() else None)
        read_training_record(shipped / name)  # sealed and readable
        print(name, json.dumps(figures[name]))
    (args.packed / "shipped.json").write_text(json.dumps(figures, indent=2))
    total = sum(p.stat().st_size for p in shipped.rglob("*") if p.is_file())
    print(f"shipped spaces of {corpus.name}: {total / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
