"""`aspectnav study online`: N app processes on loopback behind nginx, checked through the public address, then kept
running: a process that dies is started again (its participants have already moved to another one through the
proxy, and come back to nothing lost), and Ctrl-C or SIGTERM stops everything."""
from __future__ import annotations

import logging
import os
import secrets
import signal
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

    def start(self) -> None:
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
        settings = self.settings
        site, main = write_configs(settings)
        secret = secrets.token_urlsafe(32)
        env = app_environment(settings, secret, self.extra_env)
        for port in settings.ports:
            if healthy(f"http://127.0.0.1:{port}/_stcore/health", 0.5):
                raise OnlineSettingsError(f"Port {port} on loopback already serves something: stop it or "
                                          "choose --first-port.")
            app = AppProcess(port, app_command(settings, port), env, settings.run_dir / f"app-{port}.log")
            app.start()
            self.apps.append(app)
        deadline = time.monotonic() + START_TIMEOUT_S
        for app in self.apps:
            while not healthy(app.health_url(settings)):
                if app.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise OnlineSettingsError(f"The app process on port {app.port} did not start; its log: "
                                              f"{app.log_path}")
                time.sleep(0.3)
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
            self.stop()
            raise OnlineSettingsError("nginx did not start: "
                                      f"{(settings.run_dir / 'nginx-stderr.log').read_text()[-400:].strip()}")

    def restart_dead(self) -> list[int]:
        """Start again every app process that has exited; the ports restarted."""
        restarted = []
        for app in self.apps:
            if app.process is not None and app.process.poll() is not None:
                log.warning("App process on port %d exited (%s); starting it again", app.port, app.process.returncode)
                app.restarts += 1
                app.start()
                restarted.append(app.port)
        return restarted

    def stop(self) -> None:
        if self.nginx and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)  # graceful: open websockets are closed, not cut
            try:
                self.nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
        for app in self.apps:
            app.stop()

    def serve_forever(self, poll_s: float = 2.0) -> None:
        stopping = []
        previous = {sig: signal.signal(sig, lambda *_: stopping.append(True)) for sig in (signal.SIGINT,
                                                                                         signal.SIGTERM)}
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
