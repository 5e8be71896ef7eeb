#!/usr/bin/env bash
# Regenerate the reports that put Wikipedia's Read more (explore/morelike.py) beside Explore's columns (issue #50):
#   assets/reports/vital-judged.*    worth reading on the judged seeds, every pool (the Read more cards are pool 8),
#                                    with each column against Read more, paired by seed
#   assets/reports/vital-baselines.* aspect retrieval of links, Read more and generic as the main comparison measures
#                                    it (vital-main.*), mean ± sd over its three splits (seeds 42, 43, 44)
#   assets/reports/people-explore.*  an imported corpus (vital's people with a country and an occupation, written as
#                                    JSONL and imported like any researcher's file): sharing the seed's aspect, per
#                                    column, Read more's row beside links, generic and the aspect spaces
# vital's aspect-retrieval table (vital-explore.*) has its Read more row from `bash scripts/build_vital_reports.sh
# explore`. About 8 minutes on a 2-core CPU. Run from the repository root, in the venv.
set -euo pipefail
export ASPECTNAV_HOME="${ASPECTNAV_HOME:-$(mktemp -d)/aspectnav-read-more}"
mkdir -p "$ASPECTNAV_HOME"

pools=$(ls assets/judgements/vital-pool[0-9]*.json | grep -v agreement | sort -V)
# shellcheck disable=SC2086
python -m training evaluate --corpus vital --judgements $pools --output assets/reports/vital > /dev/null

for seed in 42 43 44; do
  python -m training evaluate --corpus vital --seed "$seed" --aspects country,occupation,topic \
    --combined country+occupation --output "$ASPECTNAV_HOME/vital-baselines-s$seed" \
    --spaces links,morelike,generic > /dev/null
done
python -m training summarize --output assets/reports/vital-baselines "$ASPECTNAV_HOME"/vital-baselines-s{42,43,44}.json \
  > /dev/null

python scripts/export_people_corpus.py "$ASPECTNAV_HOME/people.jsonl"
python -m explore corpus import "$ASPECTNAV_HOME/people.jsonl" --name people --force
python -m training train --corpus people --aspects country,occupation --drop-labels-below 2 --quiet
python -m training train --corpus people --aspects country,occupation --combine union --drop-labels-below 2 --quiet
python -m training evaluate --corpus people --aspects country,occupation --own-aspects country,occupation \
  --combined country+occupation --output assets/reports/people-explore \
  --spaces "links,morelike,generic,country=aspect:country,occupation=aspect:occupation,union=union" > /dev/null
echo "Written: assets/reports/vital-judged.*, vital-baselines.* and people-explore.*"
