"""A frozen bundle to link from a preregistration: the study file as written, its fingerprint, the exclusion
rules, the planned tests, the power table from `study simulate`, and the codebook, in one JSON file with its
sha256. The same study and settings give the same bytes (no clock inside), so anyone can rebuild and compare.
"""
from __future__ import annotations

import hashlib
import importlib.metadata
import json
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path

from explore.errors import AspectNavError
from study.analysis_config import AnalysisConfig
from study.codebook import codebook
from study.definition import StudyDefinition
from study.power import PowerTable


@dataclass(frozen=True)
class Bundle:
    path: Path
    sha256: str


def planned_tests(study: StudyDefinition, pairs: list[tuple[str, str]] | None, alpha: float,
                  config: AnalysisConfig = AnalysisConfig()) -> dict:
    """What `study report` will run, stated before any data exists."""
    task_types = [*study.task_types, *(["all"] if len(study.task_types) > 1 else [])]
    return {
        "unit": "participant (a source's score is the mean rank of its candidates, averaged over the "
                "participant's comparison tasks; check tasks are left out)",
        "unranked_candidates": f"{config.unranked} (rank = the task's nominal number of candidates)",
        "omnibus": {"test": "Friedman (participants with every source)", "effect_size": "Kendall's W",
                    "per_task_type": task_types, "alpha": alpha},
        "pairwise": {"test": "Wilcoxon signed-rank", "correction": "Holm", "alpha": alpha,
                     "pairs": [f"{a} vs {b}" for a, b in (pairs or combinations(study.source_labels, 2))]},
        "intervals": f"{config.confidence:.0%} percentile bootstrap over participants, "
                     f"{config.bootstrap_samples} samples, seed {config.random_seed}",
        "reported": "with the declared exclusions applied, and again without them",
    }


def bundle(study: StudyDefinition, study_file: Path, power: PowerTable, alpha: float,
           pairs: list[tuple[str, str]] | None) -> dict:
    return {
        "study": study.name,
        "fingerprint": study.fingerprint(),
        "aspectnav": importlib.metadata.version("aspectnav"),
        "study_file": {"name": study_file.name, "text": study_file.read_text(encoding="utf-8")},
        "design": {"task_order": str(study.design.order),
                   "reassign_after_minutes": study.design.reassign_after_minutes,
                   "orders": [list(row) for row in study.task_order_rows]},
        "checks": [{"task": task.id, **task.check.to_dict()} for task in study.check_tasks],
        "exclusion_rules": [{**rule.model_dump(), "excludes_a_participant_who": rule.describe()}
                            for rule in study.exclusions],
        "planned_tests": planned_tests(study, pairs, alpha),
        "power": {"effect": power.effect.model_dump(), "calibrated_mean_rank": power.achieved, "runs": power.runs,
                  "alpha": power.alpha, "rows": [asdict(row) for row in power.rows]},
        "codebook": codebook(study),
    }


def write_bundle(study: StudyDefinition, study_file: Path, power: PowerTable, out_dir: Path, alpha: float = 0.05,
                 pairs: list[tuple[str, str]] | None = None) -> Bundle:
    """Write <study>_preregistration.json and its .sha256 (sha256sum's format) into `out_dir`."""
    data = bundle(study, study_file, power, alpha, pairs)
    payload = (json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / f"{study.name}_preregistration.json"
        path.write_bytes(payload)
        digest = hashlib.sha256(payload).hexdigest()
        path.with_name(path.name + ".sha256").write_text(f"{digest}  {path.name}\n", encoding="utf-8")
    except OSError as exc:
        raise AspectNavError(f"Cannot write the preregistration bundle into {out_dir}: {exc.strerror or exc}.") from None
    return Bundle(path, digest)
