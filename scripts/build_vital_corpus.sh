#!/usr/bin/env bash
# Rewrite the shipped build of the vital corpus (assets/corpora/vital/, ~4 MB): what a fresh data home copies
# instead of building it (~3 s). Run it after changing how vital is built or labelled; a shipped build whose
# fingerprint no longer matches is ignored (the corpus is then built on first use), and
# tests/explore/corpus/test_shipped.py fails until this has run. Run from the repository root.
set -euo pipefail
python -m explore corpus build vital --ship
