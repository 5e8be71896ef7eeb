"""AppTest entry for app_pages/study.py with the fake candidate provider (the engine is not under test)."""
import runpy
from pathlib import Path

import study.engine_provider as engine_provider
from study.synthetic import SyntheticProvider

engine_provider.engine_provider = SyntheticProvider
runpy.run_path(str(Path(__file__).resolve().parents[2] / "app_pages" / "study.py"), run_name="__main__")
