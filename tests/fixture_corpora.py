"""Every fixture corpus the tests build, in one place: pick the smallest that exercises the code.

- `aspect_corpus`: a dozen real-looking articles with aspects and links (encoders, spaces, neighbours).
- `make_corpus` / `make_embeddings`: labelled people plus unlabelled things with generic-like vectors
  that carry a weak signal of both aspects (training, evaluation).
- `fixture_corpus`: 120 people with country, occupation, descriptions, URLs and mention links, 20 of them
  unlabelled (the app's pages and view models).
- `hostile_corpus`: titles, texts, labels, aspect names and URLs that try Markdown/HTML injection
  (the app's escaping, in AppTest and in the browser).
- `tiny_corpus`: 40 uniform articles with country and occupation (the study, where the engine is faked;
  it lives in study/synthetic.py because the study benchmark uses it too).
"""
from __future__ import annotations

import numpy as np

from explore.corpus.model import Article, Corpus, Provenance
from study.synthetic import tiny_corpus  # noqa: F401  (one place for every fixture corpus)


def people(occupation, country, century):
    return {"occupation": occupation, "country": country, "century": century}


ARTICLES = [
    Article("curie", "Marie Curie", "Marie Curie was a physicist and chemist who researched radioactivity.",
            links=("pierre", "radium", "radium", "missing", "curie"),
            aspects=people(("physicist", "chemist"), ("Poland", "France"), ("20th",))),
    Article("pierre", "Pierre Curie", "Pierre Curie was a French physicist, a pioneer in crystallography.",
            links=("curie",), aspects=people(("physicist",), ("France",), ("19th",))),
    Article("einstein", "Albert Einstein", "Albert Einstein was a German-born theoretical physicist.",
            aspects=people(("physicist",), ("Germany", "United States"), ("20th",))),
    Article("monet", "Claude Monet", "Claude Monet was a French painter and founder of impressionism.",
            aspects=people(("painter",), ("France",), ("19th",))),
    Article("vangogh", "Vincent van Gogh", "Vincent van Gogh was a Dutch Post-Impressionist painter.",
            aspects=people(("painter",), ("Netherlands",), ("19th",))),
    Article("napoleon", "Napoleon", "Napoleon Bonaparte was a French military commander and emperor.",
            aspects=people(("military leader", "monarch"), ("France",), ("19th",))),
    Article("radium", "Radium", "Radium is a chemical element with the symbol Ra and atomic number 88.",
            aspects={"topic": ("Physical sciences",)}),
    Article("paris", "Paris", "Paris is the capital and largest city of France.",
            aspects={"country": ("France",), "place_type": ("city",)}),
    Article("berlin", "Berlin", "Berlin is the capital and largest city of Germany.",
            aspects={"country": ("Germany",), "place_type": ("city",)}),
    Article("mercury-planet", "Mercury", "Mercury is the smallest planet in the Solar System.",
            aspects={"topic": ("Physical sciences",)}),
    Article("mercury-god", "Mercury", "Mercury is a major god in Roman religion and mythology.",
            aspects={"topic": ("Philosophy and religion",)}),
    Article("bach", "Johann Sebastian Bach", "Johann Sebastian Bach was a German composer of the Baroque period.",
            aspects=people(("composer",), ("Germany",), ("18th",))),
]


def aspect_corpus(name: str = "tiny", articles=None) -> Corpus:
    return Corpus(name, list(articles or ARTICLES), Provenance(source="test", date="2026-01-01", links="hyperlinks"))


PEOPLE_COUNTRIES = ["France", "Japan", "Brazil", "Kenya"]
PEOPLE_OCCUPATIONS = ["painter", "physicist", "composer"]


def make_corpus(people: int = 72, unlabelled: int = 12, seed: int = 0) -> Corpus:
    rng = np.random.default_rng(seed)
    articles = []
    for i in range(people):
        country = PEOPLE_COUNTRIES[i % len(PEOPLE_COUNTRIES)]
        occupation = PEOPLE_OCCUPATIONS[(i // len(PEOPLE_COUNTRIES)) % len(PEOPLE_OCCUPATIONS)]
        countries = (country,) if i % 9 else (country, PEOPLE_COUNTRIES[(i + 1) % len(PEOPLE_COUNTRIES)])  # some multi-label
        articles.append(Article(
            f"person-{i}", f"Person {i}", f"Person {i} was a {occupation} from {country}.",
            aspects={"country": countries, "occupation": (occupation,)}))
    for i in range(unlabelled):
        articles.append(Article(f"thing-{i}", f"Thing {i}", f"Thing {i} is an object number {rng.integers(1000)}."))
    return Corpus("fixture", articles, Provenance(source="test", date="2026-01-01"))


def make_embeddings(corpus: Corpus, dim: int = 32, signal: float = 0.5, seed: int = 0) -> np.ndarray:
    """Noise plus a small per-label direction: retrieval by aspect is possible but generic-level weak."""
    rng = np.random.default_rng(seed)
    directions = {label: rng.normal(size=dim) for label in PEOPLE_COUNTRIES + PEOPLE_OCCUPATIONS}
    rows = []
    for article in corpus.articles:
        vector = rng.normal(size=dim)
        for labels in article.aspects.values():
            for label in labels:
                vector += signal * directions[label]
        rows.append(vector)
    matrix = np.asarray(rows, dtype=np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


APP_COUNTRIES = ["France", "Poland", "Japan", "Brazil", "Egypt"]
APP_OCCUPATIONS = ["physicist", "painter", "writer", "composer"]


def fixture_corpus(name: str = "fixture", aspects: bool = True) -> Corpus:
    articles = []
    for i in range(120):
        country, occupation = APP_COUNTRIES[i % 5], APP_OCCUPATIONS[i % 4]
        labels = {"country": (country,), "occupation": (occupation,)} if aspects and i < 100 else {}
        text = (f"Person {i} was a {country} {occupation} known for work number {i}. " * 3).strip()
        links = tuple(f"p{j}" for j in (i + 1, i + 5, i + 20) if j < 120)
        articles.append(Article(f"p{i}", f"Person {i}", text, f"{country} {occupation}",
                                f"https://en.wikipedia.org/wiki/Person_{i}", links, labels))
    return Corpus(name, articles, Provenance(source="fixture", date="2026-01-01", links="mentions"))


def hostile_corpus(host: str, name: str = "hostile") -> Corpus:
    """Every field the app shows tries to inject Markdown or HTML pointing at `host` ("127.0.0.1:PORT"):
    images and links that would fetch or lead there, raw tags, styles, backticks, LaTeX and colour
    directives, and article URLs whose `)` would end a Markdown link early. Aspect "country" gets a
    space in the tests; the two hostile aspect names do not, so the page names them as missing.
    40 filler articles carry the same labels, so every column and map has neighbours to show."""
    evil = f"http://{host}"
    titles = [
        f"![pic]({evil}/title.png) Image <img src={evil}/title-tag.png onerror=alert(1)>",
        f'[click]({evil}/title-link) <a href="{evil}/title-a" style="color:red">anchor</a> `tick`',
        f'Bare {evil}/title-bare www.attacker.example <b style="font-size:90px">style</b> :red[red] $x$',
    ]
    labels = [
        f'<a href="{evil}/label-a">Label A</a>',
        f"![l]({evil}/label.png) Label B",
        f'<span style="font-size:60px">Label C</span> [l]({evil}/label-link)',
    ]
    aspect_names = [f"![aspect]({evil}/aspect.png) `tick`", f'<a href="{evil}/aspect-a">aspect</a>']
    text = (f"Lead ![lead]({evil}/text.png) <iframe src=\"{evil}/frame\"></iframe> [more]({evil}/text-link) "
            f"<style>*{{background:url({evil}/css.png)}}</style> <script>fetch('{evil}/script')</script> "
            f"\n\n# Heading\n\n> quote {evil}/text-bare")
    urls = [f"https://en.wikipedia.org/wiki/Image)![u]({evil}/url.png)",
            f"https://en.wikipedia.org/wiki/Link)[u]({evil}/url-link)",
            f"https://en.wikipedia.org/wiki/Tag<img/src={evil}/url-tag.png>"]
    articles = []
    for i in range(43):
        hostile = i < len(titles)
        aspects = {"country": (labels[i % 3],), aspect_names[i % 2]: (labels[(i + 1) % 3],)}
        articles.append(Article(
            f"h{i}", titles[i] if hostile else f"Person {i} `{i}` <b>", text if hostile else f"Person {i} {text}",
            f"[desc]({evil}/desc) <img src={evil}/desc.png>", urls[i] if hostile else "",
            tuple(f"h{j}" for j in (i + 1, i + 2, 0) if j < 43 and j != i), aspects))
    return Corpus(name, articles, Provenance(source=f"[source]({evil}/source)", date="2026-01-01",
                                             links="hyperlinks"))
