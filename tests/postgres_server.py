"""A throwaway PostgreSQL server from Debian's `postgresql` package: its own temporary data directory, a free
loopback port, its unix socket in that directory, and a fresh database per test.

`python -m tests.postgres_server` starts one by hand and prints its URL (for the study write benchmark).
"""
from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "aspectnav"
# Settings for a server whose data is thrown away: no fsync, and room for the concurrency test's
# 30 participants, each its own connection pool.
THROWAWAY_SETTINGS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
                      "max_connections": "200"}
INSTALL_HINT = "apt-get install postgresql (as .ci/run does)"


class PostgresUnavailable(RuntimeError):
    """No server can be started on this machine; the message says why."""


def server_binaries() -> Path:
    """The newest Debian PostgreSQL bin directory holding initdb and pg_ctl (they are not on PATH there)."""
    found = [path for path in Path("/usr/lib/postgresql").glob("*/bin")
             if (path / "initdb").exists() and (path / "pg_ctl").exists()]
    if found:
        return max(found, key=lambda path: int(path.parent.name) if path.parent.name.isdigit() else 0)
    on_path = shutil.which("pg_ctl")
    if on_path and shutil.which("initdb"):
        return Path(on_path).parent
    raise PostgresUnavailable(f"no initdb/pg_ctl under /usr/lib/postgresql/*/bin or on PATH: {INSTALL_HINT}")


def _server_account() -> pwd.struct_passwd | None:
    """postgres refuses to run as root, so root runs it as the package's `postgres` system user."""
    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam("postgres")
    except KeyError:
        raise PostgresUnavailable("running as root and there is no 'postgres' system user to run the server as: "
                                  f"{INSTALL_HINT} creates it") from None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass(frozen=True)
class PostgresServer:
    host: str
    port: int
    socket_dir: Path
    start_command: tuple[str, ...] = ()  # pg_ctl start as it was run, to bring the server back after an outage

    @contextmanager
    def outage(self) -> Iterator[None]:
        """The server gone (stopped at once, as a crash or a cut network looks to its clients), then back on the
        same port with the same data."""
        _stop(self.socket_dir / "data")
        try:
            yield
        finally:
            _run(list(self.start_command), _server_account(), self.socket_dir / "server.log")

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of `database` over TCP on loopback, as ASPECTNAV_STUDY_DB takes it."""
        return f"postgresql+psycopg://{SUPERUSER}@{self.host}:{self.port}/{database}"

    def admin(self):
        """A psycopg connection to the maintenance database over the unix socket, in autocommit."""
        import psycopg

        return psycopg.connect(host=str(self.socket_dir), port=self.port, user=SUPERUSER, dbname="postgres",
                               autocommit=True)

    @contextmanager
    def scratch_database(self) -> Iterator[str]:
        """A new empty database for one test, dropped afterwards with whatever connections it still has."""
        name = f"test_{uuid.uuid4().hex[:12]}"
        with self.admin() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield self.url(name)
        finally:
            with self.admin() as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _run(command: list[str], account: pwd.struct_passwd | None, log: Path) -> None:
    as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []} if account else {}
    result = subprocess.run(command, capture_output=True, text=True, cwd="/", **as_user)
    if result.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise RuntimeError(f"{' '.join(command[:2])} failed ({result.returncode}): {result.stderr.strip()}\n{tail}")


def _stop(data: Path, patience_s: float = 30.0) -> None:
    """Immediate shutdown by signal, as `pg_ctl stop -m immediate` sends it, but without forking: a pytest process
    that has loaded gRPC (Ray's client) can abort a forked child in gRPC's fork handlers before it execs."""
    pid_file = data / "postmaster.pid"
    if not pid_file.exists():
        return
    pid = int(pid_file.read_text().splitlines()[0])
    try:
        os.kill(pid, signal.SIGQUIT)
        deadline = time.monotonic() + patience_s
        while time.monotonic() < deadline:
            os.kill(pid, 0)  # raises once the postmaster is gone
            time.sleep(0.05)
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@contextmanager
def postgres_server(throwaway: bool = True) -> Iterator[PostgresServer]:
    """Start a server (initdb, then pg_ctl; about 2 s) and stop and delete it on exit. `throwaway=False`
    keeps PostgreSQL's durable defaults (fsync on), for measuring. PostgresUnavailable when the binaries
    or the account to run them are missing; any other failure to start raises with the server's log."""
    binaries = server_binaries()
    account = _server_account()
    # Not under pytest's root-only temp folders: the server's account must reach this directory.
    root = Path(tempfile.mkdtemp(prefix="aspectnav-pg-", dir="/tmp" if account else None))
    data, log = root / "data", root / "server.log"
    if account:
        os.chown(root, account.pw_uid, account.pw_gid)
    try:
        _run([str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8",
              "--no-locale", "--no-sync"], account, log)
        settings = {**(THROWAWAY_SETTINGS if throwaway else {}), "listen_addresses": "127.0.0.1",
                    "unix_socket_directories": str(root)}
        options = " ".join(f"-c {key}={value}" for key, value in settings.items())
        for attempt in range(3):  # another process may take the free port between the probe and the bind
            port = _free_port()
            start = (str(binaries / "pg_ctl"), "start", "-D", str(data), "-l", str(log), "-w", "-t", "60",
                     "-o", f"-p {port} {options}")
            try:
                _run(list(start), account, log)
                break
            except RuntimeError:
                if attempt == 2 or "could not bind" not in log.read_text(errors="replace"):
                    raise
        try:
            yield PostgresServer("127.0.0.1", port, root, start)
        finally:
            _stop(data)
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    with postgres_server(throwaway=False) as server:
        print(server.url(), flush=True)
        print("Ctrl-C stops the server and deletes its data.", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
