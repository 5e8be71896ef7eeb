"""An online study's settings and the proxy configuration written from them: what cannot work is refused with what
to change, and the written nginx configuration carries the websocket upgrade, stickiness, HTTPS and the prefix."""
from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

from app_server.proxy_probe import ProxyProbe
from study.nginx_config import main_config, site_config
from study.online_settings import (OnlineSettingsError, PublicAddress, check_database_for, online_settings,
                                   processes_count, processes_from_environment)

REPO = Path(__file__).resolve().parents[2]
POSTGRES = "postgresql+psycopg://study@127.0.0.1/study"


@pytest.fixture
def pem(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert.write_text("not read by these tests")
    key.write_text("not read by these tests")
    return cert, key


def settings(tmp_path, pem, url="https://study.example.org/mystudy/", processes=2, db=POSTGRES, **more):
    return online_settings(url, processes, 8601, db, "vital_default", *pem, tmp_path / "run", **more)


@pytest.mark.parametrize("url, host, port, prefix", [
    ("https://study.example.org/mystudy/", "study.example.org", 443, "/mystudy/"),
    ("https://Study.Example.org:8443/a/b", "study.example.org", 8443, "/a/b/"),
    ("https://localhost:8443", "localhost", 8443, "/"),
])
def test_the_public_address_is_read_once(url, host, port, prefix):
    address = PublicAddress.parse(url)
    assert (address.host, address.port, address.prefix) == (host, port, prefix)
    assert PublicAddress.parse(address.url) == address
    assert address.base_url_path == prefix.strip("/")


@pytest.mark.parametrize("url, said", [
    ("http://study.example.org/mystudy/", "over https://"),
    ("https:///mystudy/", "no host name"),
    ("https://study.example.org:99999/", "port"),
    ("https://study.example.org/my study/", "not allowed"),
    ("https://study.example.org/_stcore/", "not allowed"),
    ("https://study.example.org/../", "not allowed"),
    ("https://study.example.org/a/./b/", "not allowed"),
    ("https://study.example.org/s/?PROLIFIC_PID=1", "without ?"),
])
def test_a_public_address_that_cannot_work_is_refused_saying_why(url, said):
    with pytest.raises(OnlineSettingsError, match=said.replace("?", r"\?")):
        PublicAddress.parse(url)


def test_sqlite_with_more_than_one_process_is_refused_with_why_and_what_to_do():
    check_database_for(1, "sqlite:///pilot.sqlite")  # one process: fine
    check_database_for(4, POSTGRES)
    with pytest.raises(OnlineSettingsError) as refused:
        check_database_for(2, "sqlite:///study.sqlite")
    message = str(refused.value)
    assert "one writer" in message and "PostgreSQL" in message and "postgresql+psycopg://" in message
    with pytest.raises(OnlineSettingsError, match="not a database URL"):
        check_database_for(2, "::::")


@pytest.mark.parametrize("text", ["0", "-1", "65", "two", ""])
def test_the_number_of_processes_is_checked(text):
    with pytest.raises(OnlineSettingsError):
        processes_count(text)


def test_the_processes_a_launcher_set_are_read_back():
    assert processes_from_environment({}) == 1
    assert processes_from_environment({"ASPECTNAV_STUDY_PROCESSES": "3"}) == 3


def test_missing_certificate_files_are_named(tmp_path, pem):
    with pytest.raises(OnlineSettingsError, match="--cert .*no such file"):
        online_settings("https://h/s/", 1, 8601, POSTGRES, "s", tmp_path / "absent.pem", pem[1], tmp_path)


@pytest.mark.parametrize("name", ["my cert.pem", "a;b.pem", "x{y}.pem", "$HOME.pem", "q'.pem", "at@.pem"])
def test_a_path_that_would_change_the_proxys_configuration_is_refused(tmp_path, pem, name):
    odd = tmp_path / name
    odd.write_text("pem")
    with pytest.raises(OnlineSettingsError, match="written into the proxy's configuration"):
        online_settings("https://h/s/", 1, 8601, POSTGRES, "s", odd, pem[1], tmp_path / "run")


def test_an_app_port_on_the_public_port_is_refused(tmp_path, pem):
    with pytest.raises(OnlineSettingsError, match="public port"):
        online_settings("https://h:8602/s/", 2, 8601, POSTGRES, "s", *pem, tmp_path)


def test_the_site_configuration_carries_websockets_stickiness_https_and_the_prefix(tmp_path, pem):
    site = site_config(settings(tmp_path, pem, processes=3))
    for needed in ("server 127.0.0.1:8601 max_fails=0;", "server 127.0.0.1:8602 ", "server 127.0.0.1:8603 ",
                   "hash $aspectnav_route consistent;", "proxy_set_header Upgrade $http_upgrade;",
                   "proxy_set_header Connection $aspectnav_connection;", "proxy_set_header X-Forwarded-Proto $scheme;",
                   "listen 443 ssl;", "server_name study.example.org;", "location /mystudy/ {",
                   "location = /mystudy {", "return 301 https://study.example.org/mystudy/$is_args$args;",
                   "Path=/mystudy/;", "Secure; HttpOnly"):
        assert needed in site, needed
    assert "@" not in "".join(line.split("#")[0] for line in site.splitlines())
    proxied = site[site.index("location /mystudy/ {"):]
    assert "Strict-Transport-Security" in proxied[:proxied.index("\n    }")]  # a location's own add_header list
    root = site_config(settings(tmp_path, pem, url="https://study.example.org/"))
    assert "location / {" in root and "return 404" not in root and "return 301" not in root
    assert str(tmp_path / "run") in main_config(settings(tmp_path, pem))


def test_the_cli_refuses_sqlite_for_several_processes_before_starting_anything(tmp_path, pem):
    result = subprocess.run([sys.executable, "-m", "explore", "study", "online", "--public-url",
                             "https://localhost:8443/s/", "--processes", "2", "--db", f"sqlite:///{tmp_path}/s.sqlite",
                             "--cert", str(pem[0]), "--key", str(pem[1]), "--run-dir", str(tmp_path / "run")],
                            cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 2
    assert "cannot share the SQLite database" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "run").exists()  # nothing written, nothing started


def _probe(app, headers: dict[str, str], path="/mystudy/_aspectnav/proxy"):
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    scope = {"type": "http", "method": "GET", "path": path,
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}
    asyncio.run(app(scope, receive, send))
    return sent


def test_the_proxy_probe_says_what_the_app_was_told_and_warns_once_of_a_wrong_scheme(caplog):
    passed = []

    async def inner(scope, receive, send):
        passed.append(scope["path"])

    probe = ProxyProbe(inner, public_url="https://study.example.org/mystudy/")
    sent = _probe(probe, {"X-Forwarded-Proto": "https", "X-Forwarded-Prefix": "/mystudy/"})
    seen = json.loads(sent[1]["body"])
    assert seen["forwarded_proto"] == "https" and seen["forwarded_prefix"] == "/mystudy/" and seen["process"] > 0
    with caplog.at_level(logging.WARNING, logger="app_server.proxy_probe"):
        _probe(probe, {"X-Forwarded-Proto": "http"}, path="/mystudy/")
        _probe(probe, {"X-Forwarded-Proto": "http"}, path="/mystudy/")
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "X-Forwarded-Proto $scheme" in warnings[0]
    assert passed == ["/mystudy/", "/mystudy/"]  # other requests go on to the app


def test_an_app_process_of_several_refuses_an_sqlite_file_before_loading_anything(monkeypatch, tmp_path):
    from study.configured import open_study_flow

    monkeypatch.setenv("ASPECTNAV_STUDY_PROCESSES", "2")

    def never(_name):
        raise AssertionError("the corpus was loaded")

    with pytest.raises(OnlineSettingsError, match="cannot share the SQLite database"):
        open_study_flow("vital_default", f"sqlite:///{tmp_path / 's.sqlite'}", corpus_loader=never)


@pytest.mark.slow  # writes and checks a real nginx configuration
def test_a_taken_port_stops_the_start_before_any_process_and_says_which(tmp_path, pem):
    import socket

    from study.online_launch import OnlineStudy

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True)
    with socket.create_server(("127.0.0.1", 0)) as held:
        first = held.getsockname()[1]
        study = OnlineStudy(online_settings("https://localhost:9/s/", 1, first, POSTGRES, "vital_default", cert,
                                            key, tmp_path / "run"))
        with pytest.raises(OnlineSettingsError, match=f"Port\\(s\\) {first} on loopback are taken"):
            study.start()
    assert study.apps == [] and study.nginx is None
