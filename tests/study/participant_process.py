"""A participant in its own process, for the kill-and-resume test:
`python -m tests.study.participant_process STUDY_FILE DB_URL` prints its code, then one
line per answer, pausing between answers so that the test can kill it mid-study."""
from __future__ import annotations

import sys
import time

from study.definition import check_study, load_study
from study.sessions import open_flow
from study.store import StoreConfig, open_store
from study.synthetic import SyntheticProvider, tiny_corpus


def main(study_file: str, db_url: str, pause_s: float = 30.0) -> None:
    corpus = tiny_corpus()
    study = check_study(load_study(study_file), corpus)
    flow = open_flow(study, open_store(study.name, StoreConfig(url=db_url)), SyntheticProvider(corpus), corpus)
    code = flow.start()
    print(f"code {code}", flush=True)
    while (screen := flow.next_task(code)) is not None:
        flow.submit(code, screen.task_id, [c.id for c in screen.candidates[: screen.rank_depth]])
        print(f"answered {screen.task_id}", flush=True)
        shown = flow.next_task(code)  # the next task is on screen (its list stored), then a pause
        print(f"showing {shown.task_id if shown else '-'}", flush=True)
        time.sleep(pause_s)


if __name__ == "__main__":
    main(*sys.argv[1:3])
