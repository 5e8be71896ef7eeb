"""The study end to end in headless Chromium: one participant, two tasks, answers stored."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("chromium") and shutil.which("chromedriver")),
                    reason="needs chromium + chromedriver")
def test_one_participant_answers_two_tasks_in_the_browser():
    result = subprocess.run([sys.executable, "-m", "tests.app_pages.study_browser"], cwd=REPO, capture_output=True,
                            text=True, timeout=240, env={**os.environ, "SE_AVOID_STATS": "true"})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 answers stored" in result.stdout
