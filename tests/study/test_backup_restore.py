"""What to back up is the study's PostgreSQL database; README ("Run a study online") shows `pg_dump -Fc` and
`pg_restore`. Here that round trip, with the real tools of Debian's package, gives the same report and the same
exports as the original database."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

from study.sessions import open_flow
from study.store import StoreConfig, open_store
from study.synthetic import SyntheticProvider, tiny_corpus, tiny_study
from tests.postgres_server import SUPERUSER, server_binaries

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]


def _report(url: str, out: Path) -> tuple[str, str, str]:
    out.mkdir()
    result = subprocess.run([sys.executable, "-m", "explore", "study", "report", url, "--study", "tiny_study",
                             "--csv", str(out / "summary.csv"), "--answers-csv", str(out / "answers.csv")],
                            cwd=REPO, capture_output=True, text=True, check=True)
    printed = "\n".join(line for line in result.stdout.splitlines() if not line.startswith("Wrote "))
    return printed, (out / "summary.csv").read_text(), (out / "answers.csv").read_text()


def test_a_pg_dump_round_trip_gives_the_same_report(postgres, tmp_path):
    corpus = tiny_corpus()
    study = tiny_study(tmp_path)
    tools = server_binaries()
    connection = ["-h", str(postgres.socket_dir), "-p", str(postgres.port), "-U", SUPERUSER]
    with postgres.scratch_database() as original, postgres.scratch_database() as restored:
        flow = open_flow(study, open_store(study.name, StoreConfig(url=original)), SyntheticProvider(corpus), corpus)
        rng = random.Random(5)
        for _ in range(6):
            code = flow.start()
            while (screen := flow.next_task(code)) is not None:
                flow.submit(code, screen.task_id, rng.sample([c.id for c in screen.candidates], k=screen.rank_depth))
        flow.store.engine.dispose()
        dump = tmp_path / "study.dump"
        source, target = original.rsplit("/", 1)[1], restored.rsplit("/", 1)[1]
        subprocess.run([str(tools / "pg_dump"), *connection, "-Fc", "-f", str(dump), source], check=True)
        subprocess.run([str(tools / "pg_restore"), *connection, "--no-owner", "-d", target, str(dump)], check=True)
        before, after = _report(original, tmp_path / "before"), _report(restored, tmp_path / "after")
    assert "6 participants started" in before[0], before[0]
    assert after == before
    assert before[2].count("\n") > 6  # the answers really are there
