"""Where AspectNav keeps its data: one root directory, configurable by environment."""
from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_cache_dir

HOME_ENV = "ASPECTNAV_HOME"
REPO_ROOT = Path(__file__).resolve().parent.parent
ASSETS_DIR = REPO_ROOT / "assets"


def data_home() -> Path:
    """Root of corpora, spaces and caches: $ASPECTNAV_HOME, else the user cache dir."""
    configured = os.environ.get(HOME_ENV, "").strip()
    return Path(configured).expanduser() if configured else Path(user_cache_dir("aspectnav"))


def data_home_words() -> str:
    """The data home as messages name it: the variable and its real default on this system ("~/.cache/aspectnav"
    on Linux, from platformdirs), so a reader looks in the right place."""
    default = Path(user_cache_dir("aspectnav"))
    try:
        default = Path("~") / default.relative_to(Path.home())
    except ValueError:  # a cache dir outside the home folder: its full path
        pass
    return f"the data home (${HOME_ENV}, by default {default})"


def corpora_dir() -> Path:
    return data_home() / "corpora"


def spaces_dir() -> Path:
    return data_home() / "spaces"
