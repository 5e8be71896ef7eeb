"""What a study served on the open internet is: its public address, how many app processes serve it, where its
answers go and which certificate the proxy shows. Checked once, here, before anything starts: a study that would
lose answers or could not be reached is refused with what to change."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from explore.errors import AspectNavError

PROCESSES_ENV = "ASPECTNAV_STUDY_PROCESSES"
PUBLIC_URL_ENV = "ASPECTNAV_PUBLIC_URL"
MAX_PROCESSES = 64
_PREFIX_SEGMENT = re.compile(r"[A-Za-z0-9._~-]+")
_HOST = re.compile(r"[A-Za-z0-9.-]+")
# Characters that would end or change a directive in the proxy's configuration, where these paths are written.
_UNSAFE_IN_CONFIG = re.compile(r"[\s;{}$\"'@#\\]")


class OnlineSettingsError(AspectNavError):
    """The settings of an online study cannot work; the message says what to change."""


@dataclass(frozen=True)
class PublicAddress:
    """The address participants open: https, a host, a port (443 unless named) and a path prefix ending in '/'."""

    host: str
    port: int
    prefix: str

    @classmethod
    def parse(cls, url: str) -> "PublicAddress":
        parts = urlsplit(url.strip())
        if parts.scheme != "https":
            raise OnlineSettingsError(f"--public-url {url!r}: participants must reach the study over https:// "
                                      "(their answers and platform ids cross the internet).")
        host = parts.hostname or ""
        if not _HOST.fullmatch(host):
            raise OnlineSettingsError(f"--public-url {url!r}: no host name (e.g. https://study.example.org/mystudy/).")
        try:
            port = parts.port or 443
        except ValueError:
            raise OnlineSettingsError(f"--public-url {url!r}: the port is not a number from 1 to 65535.") from None
        if parts.query or parts.fragment:
            raise OnlineSettingsError(f"--public-url {url!r}: give the study's address without ?… or #…; the "
                                      "platform's parameters are added by the platform.")
        segments = [s for s in parts.path.split("/") if s]
        bad = [s for s in segments if not _PREFIX_SEGMENT.fullmatch(s) or s.startswith("_stcore") or set(s) == {"."}]
        if bad:
            raise OnlineSettingsError(f"--public-url {url!r}: the path segment {bad[0]!r} is not allowed "
                                      "(letters, digits, '.', '_', '~' and '-', not '.' or '..' alone).")
        prefix = "/" + "/".join(segments) + "/" if segments else "/"
        return cls(host.lower(), port, prefix)

    @property
    def url(self) -> str:
        port = "" if self.port == 443 else f":{self.port}"
        return f"https://{self.host}{port}{self.prefix}"

    @property
    def base_url_path(self) -> str:
        """Streamlit's server.baseUrlPath for the prefix ("" at the root)."""
        return self.prefix.strip("/")


def processes_count(text: str | int) -> int:
    try:
        count = int(text)
    except (TypeError, ValueError):
        raise OnlineSettingsError(f"--processes {text!r} is not a whole number.") from None
    if not 1 <= count <= MAX_PROCESSES:
        raise OnlineSettingsError(f"--processes {count}: give 1 to {MAX_PROCESSES} (about one per CPU core).")
    return count


def check_database_for(processes: int, database_url: str) -> None:
    """SQLite is one file on one machine with one writer at a time: two server processes writing it would
    each hold their own connection pool and lock each other out under load, and a second machine could not
    share it at all. So an instance of more than one process needs a database server."""
    try:
        backend = make_url(database_url).get_backend_name()
    except ArgumentError:
        raise OnlineSettingsError(f"The study database {database_url!r} is not a database URL "
                                  "(e.g. postgresql+psycopg://study@127.0.0.1/study).") from None
    if processes > 1 and backend == "sqlite":
        raise OnlineSettingsError(
            f"{processes} processes cannot share the SQLite database {database_url!r}: SQLite lets one writer "
            "in at a time, so processes would queue on each other's answers and a busy moment could turn "
            "participants away. Use PostgreSQL (set ASPECTNAV_STUDY_DB or --db to "
            "postgresql+psycopg://USER@HOST/DB; README, 'Run a study online') or serve one process.")


def processes_from_environment(environ: dict) -> int:
    """How many processes the launcher said serve this study (1 when no launcher started this one)."""
    value = environ.get(PROCESSES_ENV, "").strip()
    return processes_count(value) if value else 1


@dataclass(frozen=True)
class OnlineSettings:
    """Everything `aspectnav study online` needs; build with `online_settings` so it is checked."""

    address: PublicAddress
    processes: int
    first_port: int
    database_url: str
    study: str
    certificate: Path
    key: Path
    run_dir: Path
    system_nginx: bool = False

    @property
    def ports(self) -> list[int]:
        return [self.first_port + i for i in range(self.processes)]


def online_settings(public_url: str, processes: int | str, first_port: int, database_url: str, study: str,
                    certificate: Path, key: Path, run_dir: Path, system_nginx: bool = False) -> OnlineSettings:
    count = processes_count(processes)
    check_database_for(count, database_url)
    address = PublicAddress.parse(public_url)
    if not 1024 <= first_port <= 65535 - count:
        raise OnlineSettingsError(f"--first-port {first_port}: the app processes need {count} free loopback "
                                  "port(s) from 1024 to 65535.")
    if not system_nginx and first_port <= address.port < first_port + count:
        raise OnlineSettingsError(f"--first-port {first_port} makes an app process take the public port "
                                  f"{address.port}: choose ports apart.")
    for flag, path in (("--cert", certificate), ("--key", key), ("--run-dir", run_dir)):
        if _UNSAFE_IN_CONFIG.search(str(Path(path).resolve())):
            raise OnlineSettingsError(f"{flag} {path}: the path is written into the proxy's configuration, so it may "
                                      "not hold spaces or any of ; { } $ \" ' @ # \\ (move or link the file).")
    for flag, path in (("--cert", certificate), ("--key", key)):
        if not Path(path).is_file():
            raise OnlineSettingsError(f"{flag} {path}: no such file. The proxy needs the certificate chain and "
                                      "its private key (for a loopback trial, README shows how to make a "
                                      "self-signed pair with openssl).")
    return OnlineSettings(address, count, first_port, database_url, study, Path(certificate).resolve(),
                          Path(key).resolve(), Path(run_dir).resolve(), system_nginx)
