#!/usr/bin/env bash
# Rebuild the shipped full-mode spaces of vital (assets/spaces/vital/{country,occupation,union,intersection}; topic
# ships as its head space, scripts/build_vital_spaces.sh: its full space made the worse column for readers,
# docs/training.md "Full spaces shipped"):
# the shipped recipes of scripts/build_vital_spaces.sh trained in full mode (fine-tuning MiniLM, seed 42, the split
# the head spaces used), each space's corpus vectors and its fine-tuned encoder as a low-rank weight delta of MiniLM
# packed (training/weight_delta.py, seconds), then shipped as int8 vectors + that delta for free text, its nn@10
# against the fine-tuned encoder measured as it ships (training/full_spaces.py). Run from the repository root:
#
#   bash scripts/build_vital_full_spaces.sh
#
# With a GPU the four runs go side by side (one H200: 100 s of training for all five, 161 s with setup and the
# corpus encodings; docs/training.md "Full spaces shipped"); on a 2-core CPU each run takes 13 to 44 min and they go
# one after the other (1 h 40 min for the four with packing and shipping, measured on the 2-core Intel Xeon: docs/training.md
# "The CPU rebuild, run and timed").
# The packing needs the fine-tuned encoders (in the data home); the shipping (measuring each delta, 20 s a space on
# a 2-core CPU) needs only what packing wrote, so it can run on another machine:
#   python scripts/ship_full_spaces.py ship --corpus vital --packed DIR country occupation union intersection
# Settings through the environment: PACKED (default: a temporary folder), SEED (42), FULL_ARGS (extra flags).
set -euo pipefail
export ASPECTNAV_HOME="${ASPECTNAV_HOME:-$(mktemp -d)/aspectnav-full}"
PACKED=${PACKED:-$(mktemp -d)/packed}
SEED=${SEED:-42}
read -r -a FULL_EXTRA <<< "${FULL_ARGS:-}"
SPACES=(country occupation union intersection)
python -m explore spaces build --corpus vital --name generic  # each run's evaluation reference

train() {  # train NAME ARGS...: the shipped recipe of NAME in full mode
  local name=$1; shift
  python -m training train --corpus vital --mode full --drop-labels-below 2 --seed "$SEED" --save-steps 100000 \
    --space-name "$name" --run-name "vital-$name-full" --quiet "${FULL_EXTRA[@]}" "$@"
}
GPU=$(python -c "import torch; print(int(torch.cuda.is_available()))")
[ "$GPU" = 1 ] || echo "No GPU: the four full-mode runs go one after the other (~20 min each on a 2-core CPU)." >&2
pids=()
start() {  # one GPU holds the four runs side by side; a CPU runs them one after the other
  if [ "$GPU" = 1 ]; then train "$@" & pids+=($!); else train "$@"; fi
}
start country --aspects country
start occupation --aspects occupation
start union --aspects country,occupation --combine graded --objective graded --triplets-per-anchor 2
start intersection --aspects country,occupation --combine intersection
[ ${#pids[@]} -eq 0 ] || wait "${pids[@]}"
python scripts/ship_full_spaces.py pack --corpus vital --home "$ASPECTNAV_HOME" --out "$PACKED" "${SPACES[@]}"
python scripts/ship_full_spaces.py ship --corpus vital --packed "$PACKED" "${SPACES[@]}"
python -m explore spaces list --corpus vital
python scripts/build_vital_maps.py  # the Maps page's default maps: keyed by each space's encoder fingerprint
