#!/usr/bin/env bash
# Regenerate the shipped evaluation reports of the vital corpus (assets/reports/vital-main.* and
# vital-objectives.*; the tables in README.md and docs/training.md come from them). Trains the compared
# head spaces into a scratch data home (deterministic), then evaluates every row through the engine's own
# ranking, so each figure is that of the lists the app serves. The main table is the mean ± sd over three
# seeds (each seed its own split and training: vital-main-s42/-s43/-s44, then `training summarize`); the
# objectives table is seed 42. About 25 minutes on a 2-core CPU. Run from the repository root.
# `explore` alone (bash scripts/build_vital_reports.sh explore, ~5 minutes) regenerates only vital-explore.*.
set -euo pipefail
export ASPECTNAV_HOME="${ASPECTNAV_HOME:-$(mktemp -d)/aspectnav-reports}"
SEEDS=(42 43 44)

# Explore's columns as shipped (the shipped spaces, in a data home of their own, on their split: seed 42), and
# each seed's default "your mix" at several links shares: the measurement behind explore/mix.py's
# DEFAULT_LINKS_SHARE (docs/training.md, "The links share of your mix").
explore_report() {
  # `aspect:country`, `union:union`: the columns as Explore serves them (relevant first; explore/relevant_first.py)
  local share rows="links,morelike,generic,country=aspect:country,occupation=aspect:occupation,topic=aspect:topic"
  rows+=",kind=aspect:kind,century=aspect:century,field=aspect:field"
  rows+=",union=union:union,intersection=intersection:intersection"
  for share in 0 0.05 0.1 0.15 0.2 0.3 0.5; do rows+=",your-mix-$share=default-mix:$share"; done
  ASPECTNAV_HOME="$(mktemp -d)" python -m training evaluate --corpus vital \
    --aspects country,occupation,topic,kind,century,field --own-aspects country,occupation,topic,kind,century,field \
    --output assets/reports/vital-explore --spaces "$rows" > /dev/null
}
explore_report
[ "${1:-}" = explore ] && exit 0
train() { python -m training train --corpus vital --drop-labels-below 2 --quiet "$@"; }

# The main comparison: the shipped recipes (scripts/build_vital_spaces.sh) and the multi-aspect variants.
for seed in "${SEEDS[@]}"; do
  s=$([ "$seed" = 42 ] && echo "" || echo "-s$seed")
  train --seed "$seed" --aspects country,occupation
  train --seed "$seed" --aspects topic --objective aspectcse-fn --head mlp
  train --seed "$seed" --aspects country,occupation --combine intersection
  train --seed "$seed" --aspects country,occupation --combine union
  train --seed "$seed" --aspects country,occupation --combine graded --objective graded --head mlp \
        --triplets-per-anchor 2 --space-name "graded-mlp$s"
  train --seed "$seed" --aspects country,occupation --combine graded --objective graded --space-name "graded-linear$s"
  python -m training evaluate --corpus vital --seed "$seed" --aspects country,occupation,topic \
    --combined country+occupation --output "$ASPECTNAV_HOME/vital-main-s$seed" \
    --spaces "links,generic,country=country$s,occupation=occupation$s,topic=topic-aspectcse-fn-mlp$s,intersection=intersection-country-occupation$s,union-aspectcse=union-country-occupation$s,blend=blend:country$s:0.5,occupation$s:0.5,union-graded-linear=graded-linear$s,union=graded-mlp$s" \
    > /dev/null
done
python -m training summarize --output assets/reports/vital-main "$ASPECTNAV_HOME"/vital-main-s{42,43,44}.json

# Objectives compared (seed 42): every objective on each single aspect, linear and mlp heads.
for objective in aspectcse aspectcse-fn mnrl triplet graded; do
  train --aspects country,occupation,topic --objective "$objective"
done
for objective in aspectcse aspectcse-fn graded; do
  train --aspects country,occupation,topic --objective "$objective" --head mlp
done
rows=generic
for aspect in country occupation topic; do
  rows+=",$aspect-aspectcse=$aspect,$aspect-mnrl,$aspect-triplet,$aspect-aspectcse-fn,$aspect-graded"
  rows+=",$aspect-aspectcse-mlp=$aspect-mlp,$aspect-aspectcse-fn-mlp,$aspect-graded-mlp"
done
python -m training evaluate --corpus vital --aspects country,occupation,topic \
  --output assets/reports/vital-objectives --spaces "$rows"
