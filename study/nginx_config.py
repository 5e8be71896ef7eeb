"""The proxy's configuration, written from the shipped templates (deploy/*.template) with an online study's values,
and checked by nginx itself (`nginx -t`) before it is used."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from study.online_settings import OnlineSettings, OnlineSettingsError

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
SITE_TEMPLATE = DEPLOY / "study.conf.template"
MAIN_TEMPLATE = DEPLOY / "nginx.conf.template"
INSTALL_HINT = "apt-get install nginx (Debian's package)"


def _fill(template: Path, values: dict[str, str]) -> str:
    text = template.read_text()
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    if "@" in "".join(line.split("#", 1)[0] for line in text.splitlines()):
        raise AssertionError(f"{template.name}: a value was left unfilled")
    return text


def site_config(settings: OnlineSettings) -> str:
    """The server block and its upstreams (what goes into /etc/nginx/conf.d/ for a system nginx)."""
    # max_fails=0: a loopback process that is down refuses at once and the request moves on to the next one
    # (proxy_next_upstream); marking it down instead would, for fail_timeout, count a restarted process as down too.
    upstreams = "\n".join(f"    server 127.0.0.1:{port} max_fails=0;" for port in settings.ports)
    address = settings.address
    at_root = address.prefix == "/"
    # Under a prefix: its address without the slash goes to the study, and every other path is not ours.
    # The configured address, never the request's Host (this server block answers any Host).
    redirect = "" if at_root else (f"    location = {address.prefix.rstrip('/')} {{\n"
                                   f"        return 301 {address.url}$is_args$args;\n    }}")
    others = "" if at_root else "    location / {\n        return 404;\n    }"
    return _fill(SITE_TEMPLATE, {
        "SERVER_NAME": address.host, "PREFIX": address.prefix, "PREFIX_REDIRECT": redirect, "OTHER_PATHS": others,
        "LISTEN_PORT": str(address.port), "CERTIFICATE": str(settings.certificate), "KEY": str(settings.key),
        "UPSTREAMS": upstreams})


def main_config(settings: OnlineSettings) -> str:
    """A whole nginx configuration that keeps everything it writes in the run folder."""
    # Run as root, nginx's workers drop to nobody: they must still reach the buffers' folder.
    user_line = "user nobody nogroup;" if os.geteuid() == 0 else ""
    return _fill(MAIN_TEMPLATE, {"RUN_DIR": str(settings.run_dir), "USER_LINE": user_line})


def nginx_binary() -> str:
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx")
                                           if Path(p).exists()), None)
    if not found:
        raise OnlineSettingsError(f"nginx is not installed: {INSTALL_HINT}.")
    return found


def write_configs(settings: OnlineSettings) -> tuple[Path, Path]:
    """study.conf and nginx.conf in the run folder, nginx's buffer folders beside them; checked with `nginx -t`."""
    run_dir = settings.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    site, main = run_dir / "study.conf", run_dir / "nginx.conf"
    site.write_text(site_config(settings))
    main.write_text(main_config(settings))
    temp = run_dir / "nginx-temp"
    for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (temp / name).mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        for folder in [temp, *temp.iterdir()]:
            shutil.chown(folder, "nobody", "nogroup")
    result = subprocess.run([nginx_binary(), "-t", "-q", "-p", str(run_dir), "-c", str(main)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        said = [line for line in result.stderr.splitlines() if "[emerg]" in line or "[error]" in line]
        raise OnlineSettingsError(f"nginx refuses the written configuration {main}: "
                                  f"{(said or result.stderr.strip().splitlines() or ['no reason given'])[0]}")
    return site, main
