"""Give the shipped full-mode spaces a distilled last layer for free text (training/distilled_layer.py), from their
own shipped vectors: no GPU and no fine-tuned encoder needed.

    python scripts/distil_full_layers.py --corpus vital --train-articles 6000 country occupation union intersection

MiniLM's states entering its last layer are computed once for every article and cached under --cache (~15 min on a
2-core CPU), then each space's layer is trained on its record's training articles and scored on 200 held-out
articles' texts used as free-text queries (nn@10 overlap with the space's own neighbours of those articles).
Figures go to each space's training.json (`shipped`; the replaced head's under `shipped.before`) and are printed.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from explore.corpus import open_corpus  # noqa: E402
from explore.spaces import spaces_for  # noqa: E402
from explore.spaces.registry import SHIPPED_SPACES_DIR  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default="vital")
    parser.add_argument("--shipped", type=Path, default=None, help="default: assets/spaces/<corpus>")
    parser.add_argument("--cache", type=Path, default=None,
                        help="where the token states are cached (default: a folder under /tmp named by corpus and model)")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--learning-rate", type=float, default=2e-4)
    parser.add_argument("--train-articles", type=int, default=None,
                        help="a seeded sample of the training articles (default: all)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (the CPU is often shared)")
    parser.add_argument("spaces", nargs="+")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch

    from explore.encoders import load_encoder
    from explore.spaces.article_text import article_text
    from training.distilled_layer import DistilledLayerTrainer, token_states
    from training.full_spaces import reship_with_distilled_layer

    torch.set_num_threads(args.threads)
    corpus = open_corpus(args.corpus)
    shipped = args.shipped or SHIPPED_SPACES_DIR / corpus.name
    base = load_encoder("minilm")
    layer = len(base.model[0].auto_model.encoder.layer) - 1
    cache = args.cache or Path("/tmp") / f"aspectnav-states-{corpus.name}-{corpus.content_hash}-{base.fingerprint}"
    started = time.perf_counter()
    states = token_states(base.model, [article_text(a) for a in corpus.articles], layer, cache)
    print(f"token states entering layer {layer}: {len(states.offsets) - 1} articles, "
          f"{time.perf_counter() - started:.0f} s (cache {cache})", flush=True)
    layer_state = base.model[0].auto_model.encoder.layer[layer].state_dict()
    heads = base.model[0].auto_model.config.num_attention_heads
    generic = spaces_for(corpus, progress=False).open("generic").embeddings_
    figures = {}
    for name in args.spaces:
        started = time.perf_counter()
        trainer = DistilledLayerTrainer(epochs=args.epochs, learning_rate=args.learning_rate,
                                        log=lambda line, name=name: print(f"{name}: {line}", flush=True))
        figures[name] = reship_with_distilled_layer(corpus, name, shipped, states, layer_state, heads, trainer,
                                                    generic_corpus=generic, train_articles=args.train_articles)
        figures[name]["train_seconds"] = round(time.perf_counter() - started, 1)
        print(name, json.dumps(figures[name]), flush=True)
    total = sum(p.stat().st_size for p in shipped.rglob("*") if p.is_file())
    print(f"shipped spaces of {corpus.name}: {total / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
