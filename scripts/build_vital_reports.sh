#!/usr/bin/env bash
# Regenerate the shipped evaluation reports of the vital corpus (assets/reports/vital-main.* and
# vital-objectives.*; the tables in README.md and docs/training.md come from them). Trains the compared
# head spaces into a scratch data home (deterministic; ~5-10 min on a 2-core CPU), then evaluates every
# row through the engine's own ranking, so each figure is that of the lists the app serves.
# Run from the repository root.
set -euo pipefail
export ASPECTNAV_HOME="${ASPECTNAV_HOME:-$(mktemp -d)/aspectnav-reports}"
train() { python -m training train --corpus vital --drop-labels-below 2 --quiet "$@"; }

for objective in aspectcse aspectcse-fn mnrl triplet; do
  train --aspects country,occupation,topic --objective "$objective"
done
for objective in aspectcse aspectcse-fn; do
  train --aspects country,occupation,topic --objective "$objective" --head mlp
done
train --aspects country,occupation --combine intersection
train --aspects country,occupation --combine union
train --aspects country,occupation --combine union --sampling pooled
train --aspects country,occupation --combine union --objective aspectcse-fn

python -m training evaluate --corpus vital --aspects country,occupation,topic --combined country+occupation \
  --output assets/reports/vital-main \
  --spaces generic,country,occupation,topic,intersection=intersection-country-occupation,union=union-country-occupation,union-pooled=union-country-occupation-pooled,blend=blend:country:0.5,occupation:0.5,ours=union-country-occupation-aspectcse-fn,country-fn=country-aspectcse-fn,occupation-fn=occupation-aspectcse-fn,topic-fn=topic-aspectcse-fn,topic-fn-mlp=topic-aspectcse-fn-mlp
python -m training evaluate --corpus vital --aspects country,occupation,topic \
  --output assets/reports/vital-objectives \
  --spaces generic,country-aspectcse=country,country-mnrl,country-triplet,country-aspectcse-fn,country-aspectcse-mlp=country-mlp,country-aspectcse-fn-mlp,occupation-aspectcse=occupation,occupation-mnrl,occupation-triplet,occupation-aspectcse-fn,occupation-aspectcse-mlp=occupation-mlp,occupation-aspectcse-fn-mlp,topic-aspectcse=topic,topic-mnrl,topic-triplet,topic-aspectcse-fn,topic-aspectcse-mlp=topic-mlp,topic-aspectcse-fn-mlp
