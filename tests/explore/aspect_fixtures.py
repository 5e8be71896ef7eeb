"""A dozen articles with aspects, shared by the encoder, space and neighbour tests."""
from __future__ import annotations

from explore.corpus.model import Article, Corpus, Provenance


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
