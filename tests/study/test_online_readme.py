"""README's "Run a study online", run as written on loopback: its commands (Debian's nginx and PostgreSQL cluster,
a self-signed certificate, `aspectnav study online --check-only`, then serving and `online-check`, then the backup
round trip) in a scratch folder, as root, as the section says. Only the certificate-from-a-CA and DNS steps are not
run (they need the internet)."""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
REPO = Path(__file__).resolve().parents[2]
SECTION = "### Run a study online"


def _section() -> str:
    text = (REPO / "README.md").read_text()
    start = text.index(SECTION)
    return text[start:text.index("\n## ", start)]


def section_blocks() -> list[str]:
    return [re.sub(r"^ {2}", "", block, flags=re.M)
            for block in re.findall(r"```bash\n(.*?)```", _section(), flags=re.S)]


def shown_output() -> list[str]:
    """The lines the section shows the check printing (the fence that starts with the processes' line)."""
    return re.search(r"```\n(\d+ app process.*?)```", _section(), flags=re.S).group(1).strip().splitlines()


def _bash(script: str, cwd: Path, env: dict, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)


async def one_participant(url: str, cert: Path) -> None:
    """A participant through the proxy answers the first task, so the backup has answers to carry."""
    from benchmarks.streamlit_participant import StreamlitParticipant

    async with StreamlitParticipant(url, ssl.create_default_context(cafile=str(cert))) as tab:
        await tab.open()
        await tab.check("study_consent")
        screen = await tab.click("study_start")
        for key in screen.keys("study_pick_")[:5]:
            screen = await tab.click(key)
        screen = await tab.click("study_save")
        assert any("Task 2 of 12" in text for text in screen.texts)


def _cluster_running() -> bool:
    return subprocess.run(["pg_ctlcluster", "15", "main", "status"], capture_output=True).returncode == 0


def test_the_readmes_online_study_commands_run_as_written(tmp_path):
    if os.geteuid() != 0 or not shutil.which("pg_ctlcluster"):
        if os.environ.get("CI"):
            pytest.fail("CI runs as root with Debian's postgresql installed (.ci/run); this test needs both")
        pytest.skip("the section's commands are a root's on a Debian server with the postgresql package: runs as "
                    "root where it is installed (under CI it must, and fails otherwise)")
    setup, _real_host, backup = section_blocks()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}", "HF_HUB_OFFLINE": "1"}
    os.chmod(tmp_path, 0o755)
    was_running = _cluster_running()
    serving = None
    try:
        done = _bash(setup, tmp_path, env)
        assert done.returncode == 0, done.stdout + done.stderr
        shown = shown_output()
        assert done.stdout.splitlines()[-len(shown):] == shown, done.stdout  # the README's lines, as printed
        assert not any(p.name.startswith("app-") and p.suffix == ".log" and "Traceback" in p.read_text()
                       for p in (tmp_path / "study-online").iterdir())

        # Without --check-only it keeps serving; the check of a running study passes from outside.
        exports = "\n".join(line for line in setup.splitlines() if line.startswith("export "))
        serve = setup.splitlines()[-1].replace(" --check-only", "")
        serving = subprocess.Popen(["bash", "-c", f"{exports}\nexec {serve}"], cwd=tmp_path, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        seen = ""
        deadline = time.monotonic() + 300
        while "Serving https://localhost:8443/mystudy/" not in seen:
            line = serving.stdout.readline()
            assert line or serving.poll() is None, seen
            seen += line
            assert time.monotonic() < deadline, seen
        check = _bash("aspectnav study online-check https://localhost:8443/mystudy/ --ca-file cert.pem "
                      "--processes 2", tmp_path, env, timeout=120)
        assert check.returncode == 0 and "FAIL" not in check.stdout, check.stdout + check.stderr
        asyncio.run(one_participant("https://localhost:8443/mystudy/", tmp_path / "cert.pem"))  # data to back up
        os.killpg(serving.pid, signal.SIGTERM)
        assert serving.wait(timeout=60) == 0

        restored = _bash(backup, tmp_path, env)
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "Study vital_default: 1 participants started" in restored.stdout, restored.stdout
    finally:
        if serving is not None and serving.poll() is None:
            os.killpg(serving.pid, signal.SIGKILL)
        if _cluster_running():
            for statement in ("DROP DATABASE IF EXISTS study_restored", "DROP DATABASE IF EXISTS study",
                              "DROP ROLE IF EXISTS study"):
                subprocess.run(["su", "postgres", "-c", f'psql -c "{statement}"'], capture_output=True)
            if not was_running:
                subprocess.run(["pg_ctlcluster", "15", "main", "stop"], capture_output=True)
