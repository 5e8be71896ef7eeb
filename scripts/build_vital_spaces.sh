#!/usr/bin/env bash
# Rebuild every shipped space of the vital corpus (assets/spaces/vital/): the generic MiniLM space
# (fp16 embeddings; ~5-15 min of encoding on a 2-core CPU, skipped when a valid one is stored) and
# the trained aspect heads (head mode, seconds to a minute each; shipped as heads that the engine
# projects from the generic space on first use, ~1 s). Run from the repository root.
set -euo pipefail
python -m explore spaces build --corpus vital --ship

train() {  # train NAME ARGS... : train a head (the space lands in the data home), then ship it
  local name=$1; shift
  python -m training train --corpus vital --mode head --drop-labels-below 2 --seed 42 \
      --space-name "$name" --run-name "vital-$name" --quiet "$@"
  python -m explore spaces build --corpus vital --name "$name" --ship  # head in encoder/, training.json beside
}

train country --aspects country
train occupation --aspects occupation
train topic --aspects topic --objective aspectcse-fn --head mlp
# union: the graded multi-aspect objective (sharing both aspects ranks above sharing one; docs/training.md)
train union --aspects country,occupation --combine graded --objective graded --head mlp --triplets-per-anchor 2
train intersection --aspects country,occupation --combine intersection
# what kind, when and the finer filing, for every article (docs/aspects.md): linear heads, 0.6 MB each
train kind --aspects kind
train century --aspects century
train field --aspects field
python -m explore spaces list --corpus vital
# the Maps page's default maps of these spaces (assets/maps/vital/): they are keyed by each space's encoder fingerprint
python scripts/build_vital_maps.py
