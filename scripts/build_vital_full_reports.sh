#!/usr/bin/env bash
# Full mode (fine-tuning MiniLM with the sentence-transformers trainer) against head mode on vital, per seed, in
# one report each: the head spaces (the shipped recipes) and the full-mode spaces of the same recipes are trained
# into this data home on the seed's split and evaluated together through the served ranking, then averaged over
# the seeds (`training summarize`). The table in docs/training.md ("Full mode on a GPU") comes from it.
#
#   bash scripts/build_vital_full_reports.sh REPORT_DIR
#
# Needs a GPU to take minutes (one H200: ~4 min for three seeds run side by side); on a 2-core CPU one full-mode run
# of vital takes ~20 min. Settings through the environment:
#   SEEDS="42 43 44"   seeds (each its own split and training)
#   PARALLEL=1         seeds trained side by side (one GPU holds several MiniLM runs)
#   FULL_ARGS=""       extra flags for every full-mode run (e.g. "--epochs 2")
#   CORPUS=vital       the corpus (a copy of vital under another name where its data package is not installed)
#   TAG=""             appended to every space and report name: a variant beside the default (e.g. TAG=-e3 FULL_ARGS="--epochs 3")
#   DEADLINE=          a Unix time: a seed's chain starts no new step after it (the report of what finished stays)
# Run from the repository root.
set -euo pipefail
REPORTS=${1:?usage: build_vital_full_reports.sh REPORT_DIR}
mkdir -p "$REPORTS"
export ASPECTNAV_HOME="${ASPECTNAV_HOME:-$(mktemp -d)/aspectnav-full}"
SEEDS=${SEEDS:-42 43 44}
PARALLEL=${PARALLEL:-1}
CORPUS=${CORPUS:-vital}
read -r -a FULL_EXTRA <<< "${FULL_ARGS:-}"

in_time() { [ -z "${DEADLINE:-}" ] || [ "$(date +%s)" -lt "$DEADLINE" ]; }
train() { python -m training train --corpus "$CORPUS" --drop-labels-below 2 --quiet "$@"; }
full() { train --mode full --save-steps 100000 "${FULL_EXTRA[@]}" "$@"; }

# The generic space once, before the seeds run side by side (each head space projects it).
python -m explore spaces build --corpus "$CORPUS" --name generic

chain() {  # one seed: head and full spaces of the same recipes, then its report
  local seed=$1 s="${TAG:-}"
  [ "$seed" = 42 ] || s="$s-s$seed"
  local rows="links,generic"
  in_time || return 0
  full --seed "$seed" --aspects country,occupation --space-name "full$s" \
    && rows+=",country-full=full$s-country,occupation-full=full$s-occupation"
  in_time && full --seed "$seed" --aspects country,occupation --combine graded --objective graded \
      --triplets-per-anchor 2 --space-name "graded-full$s" && rows+=",union-graded-full=graded-full$s"
  train --seed "$seed" --aspects country,occupation --space-name "head$s" \
    && rows+=",country-head=head$s-country,occupation-head=head$s-occupation"
  train --seed "$seed" --aspects country,occupation --combine graded --objective graded --head mlp \
      --triplets-per-anchor 2 --space-name "graded-head$s" && rows+=",union-graded-head=graded-head$s"
  python -m training evaluate --corpus "$CORPUS" --seed "$seed" --aspects country,occupation,topic \
    --combined country+occupation --output "$REPORTS/vital-full${TAG:-}-s$seed" --spaces "$rows" > /dev/null
  # aspectcse on the union (positive shares either aspect), last: the report is rewritten with it when it finishes
  if in_time && full --seed "$seed" --aspects country,occupation --combine union --space-name "union-full$s"; then
    rows+=",union-aspectcse-full=union-full$s"
    python -m training evaluate --corpus "$CORPUS" --seed "$seed" --aspects country,occupation,topic \
      --combined country+occupation --output "$REPORTS/vital-full${TAG:-}-s$seed" --spaces "$rows" > /dev/null
  fi
}

running=0
for seed in $SEEDS; do
  chain "$seed" > "$REPORTS/seed${TAG:-}-$seed.log" 2>&1 &
  running=$((running + 1))
  if [ "$running" -ge "$PARALLEL" ]; then wait -n || true; running=$((running - 1)); fi
done
wait || true
reports=("$REPORTS"/vital-full"${TAG:-}"-s*.json)
[ -e "${reports[0]}" ] || { echo "no seed finished its report; see $REPORTS/seed-*.log" >&2; exit 1; }
if [ "${#reports[@]}" -gt 1 ]; then
  python -m training summarize --output "$REPORTS/vital-full${TAG:-}" "${reports[@]}" \
    || echo "seeds differ in their rows (some chains stopped early); the per-seed reports stand" >&2
fi
# Each run's record (train seconds, examples, device) beside the reports.
for record in "$ASPECTNAV_HOME"/training/runs/*/run.json; do
  cp "$record" "$REPORTS/run-$(basename "$(dirname "$record")").json"
done
