"""`aspectnav study online`: N app processes on loopback behind nginx, checked through the public address, then kept
running: a process that dies is started again (its participants have already moved to another one through the
proxy, and come back to nothing lost), and Ctrl-C or SIGTERM stops everything."""
from __future__ import annotations

import logging
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from study.nginx_config import nginx_binary, write_configs
from study.online_settings import PROCESSES_ENV, PUBLIC_URL_ENV, OnlineSettings, OnlineSettingsError

REPO = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 180.0
QUICK_DEATH_S = 30.0  # an app process that exits sooner than this after starting is restarted after a pause
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # Ctrl-C, a service manager, a closed terminal
log = logging.getLogger(__name__)


def app_command(settings: OnlineSettings, port: int) -> list[str]:
    return [sys.executable, "-m", "streamlit", "run", str(REPO / "serve.py"), "--server.headless", "true",
            "--server.address", "127.0.0.1", "--server.port", str(port),
            "--server.baseUrlPath", settings.address.base_url_path, "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none"]


def app_environment(settings: OnlineSettings, cookie_secret: str,
                    extra: dict[str, str] | None = None) -> dict[str, str]:
    """Every process serves the same study from the same database, study pages only, and signs cookies alike
    (a participant moved to another process keeps a valid session cookie)."""
    return {**os.environ, **(extra or {}), "ASPECTNAV_STUDY_ONLY": "1", "ASPECTNAV_STUDY": settings.study,
            "ASPECTNAV_STUDY_DB": settings.database_url, PROCESSES_ENV: str(settings.processes),
            PUBLIC_URL_ENV: settings.address.url, "STREAMLIT_SERVER_COOKIE_SECRET": cookie_secret,
            "PYTHONPATH": str(REPO)}


def port_free(port: int) -> bool:
    """Whether nothing listens on this loopback port (whatever path prefix a leftover server uses)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the app's server binds: TIME_WAIT is free
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def interrupted(*_args) -> None:
    """SIGTERM or SIGHUP while starting: unwind like Ctrl-C, so what was started is stopped."""
    raise KeyboardInterrupt


def healthy(url: str, timeout_s: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return response.status == 200
    except OSError:
        return False


@dataclass
class AppProcess:
    port: int
    command: list[str]
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen | None = None
    restarts: int = 0
    started_at: float = 0.0
    failures: int = 0  # exits in a row soon after starting
    not_before: float = 0.0  # no restart before this (monotonic seconds)

    def start(self) -> None:
        self.started_at = time.monotonic()
        with self.log_path.open("a") as out:
            self.process = subprocess.Popen(self.command, cwd=REPO, env=self.env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)

    def health_url(self, settings: OnlineSettings) -> str:
        prefix = settings.address.prefix
        return f"http://127.0.0.1:{self.port}{prefix}_stcore/health"

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()


@dataclass
class OnlineStudy:
    """The running processes and proxy of one online study."""

    settings: OnlineSettings
    extra_env: dict[str, str] = field(default_factory=dict)  # more environment for the app processes
    apps: list[AppProcess] = field(default_factory=list)
    nginx: subprocess.Popen | None = None

    def start(self) -> None:
        """Write and check the proxy's configuration, start the app processes and nginx; on any failure or
        interruption on the way, stop whatever was started before passing it on."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        settings = self.settings
        site, main = write_configs(settings)
        secret = secrets.token_urlsafe(32)
        env = app_environment(settings, secret, self.extra_env)
        busy = [port for port in settings.ports if not port_free(port)]
        if busy:
            raise OnlineSettingsError(f"Port(s) {', '.join(map(str, busy))} on loopback are taken (an earlier run "
                                      "still going?): stop what holds them or choose --first-port.")
        for port in settings.ports:
            app = AppProcess(port, app_command(settings, port), env, settings.run_dir / f"app-{port}.log")
            app.start()
            self.apps.append(app)
        deadline = time.monotonic() + START_TIMEOUT_S
        for app in self.apps:
            while app.process.poll() is None and not healthy(app.health_url(settings)):
                if time.monotonic() > deadline:
                    break
                time.sleep(0.3)
            if app.process.poll() is not None or not healthy(app.health_url(settings)):
                raise OnlineSettingsError(f"The app process on port {app.port} did not start; its log: "
                                          f"{app.log_path}")
        if settings.system_nginx:
            print(f"The proxy's site configuration is {site}: copy it to /etc/nginx/conf.d/ and run "
                  "`nginx -s reload` (as root).", flush=True)
            return
        self.nginx = subprocess.Popen([nginx_binary(), "-p", str(settings.run_dir), "-c", str(main),
                                       "-g", "daemon off;"], stdout=subprocess.DEVNULL,
                                      stderr=(settings.run_dir / "nginx-stderr.log").open("a"),
                                      start_new_session=True)
        time.sleep(0.3)
        if self.nginx.poll() is not None:
            raise OnlineSettingsError("nginx did not start: "
                                      f"{(settings.run_dir / 'nginx-stderr.log').read_text()[-400:].strip()}")

    def restart_dead(self) -> list[int]:
        """Start again every app process that has exited; the ports restarted. One that keeps dying soon after it
        starts is started again after a growing pause (2, 4, … up to 60 s), not every poll."""
        restarted = []
        now = time.monotonic()
        for app in self.apps:
            if app.process is None or app.process.poll() is None or now < app.not_before:
                continue
            quick_death = now - app.started_at < QUICK_DEATH_S
            app.failures = app.failures + 1 if quick_death else 0
            app.not_before = now + min(60.0, 2.0 ** app.failures) if app.failures else now
            log.warning("App process on port %d exited (%s); starting it again", app.port, app.process.returncode)
            app.restarts += 1
            app.start()
            restarted.append(app.port)
        return restarted

    def stop(self) -> None:
        if self.nginx and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)  # graceful: workers close open websockets (worker_shutdown_timeout)
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.nginx.pid, signal.SIGKILL)  # the master and its workers
                self.nginx.wait(timeout=10)
        for app in self.apps:
            app.stop()

    def serve_forever(self, poll_s: float = 2.0) -> None:
        stopping = []
        previous = {sig: signal.signal(sig, lambda *_: stopping.append(True)) for sig in STOP_SIGNALS}
        try:
            while not stopping:
                self.restart_dead()
                if self.nginx is not None and self.nginx.poll() is not None:
                    raise OnlineSettingsError(f"nginx stopped (exit {self.nginx.returncode}); see "
                                              f"{self.settings.run_dir / 'nginx-error.log'}")
                time.sleep(poll_s)
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self.stop()
