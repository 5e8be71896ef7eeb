"""An article's labels read off its own text (short description and lead), with their sources: the rules of
vital's build, and of every import where the file gives no labels of an aspect."""
from __future__ import annotations

import dataclasses

from explore.corpus.label_source import LabelSource, origins
from explore.corpus.model import Article
from explore.corpus.thing_aspects import LabelledAspects, thing_aspects
from explore.corpus.vital_aspects import NO_TOPIC, PEOPLE_TOPIC, PLACES_TOPIC, aspects_for

MAX_DESCRIPTION_CHARS = 400  # Wikidata's short descriptions stay under 250 characters
MAX_LEAD_CHARS = 2000  # the first sentence, with room


def text_labels(title: str, description: str, topic: str, lead: str) -> LabelledAspects:
    """An article's labels from its own text, with their sources: a person's and a place's as `aspects_for` reads
    them (the description, else the lead), anything else's where, when and what kind (thing_aspects)."""
    labelled = LabelledAspects()
    # A short description is a line; the rules read the lead's first sentence: what an import may hand in longer
    # (a pasted article, a hostile file) is cut before any rule reads it, so no text costs more than these do.
    description, lead = description[:MAX_DESCRIPTION_CHARS], lead[:MAX_LEAD_CHARS]
    own = aspects_for(title, description, topic, lead)
    from_description = aspects_for(title, description, topic, "")
    topic_labels = own.pop("topic", None)
    for aspect, labels in own.items():
        labelled.add(aspect, labels, LabelSource.DESCRIPTION if from_description.get(aspect) == labels
                     else LabelSource.LEAD)
    is_person_or_place = topic in (PEOPLE_TOPIC, PLACES_TOPIC) or "occupation" in own or "place_type" in own
    if not is_person_or_place:
        thing = thing_aspects(description, lead)
        for aspect, labels in thing.labels.items():
            labelled.add(aspect, labels, thing.sources[aspect])
    if topic_labels:  # the data package's own filing: no source to name
        labelled.labels = {"topic": topic_labels, **labelled.labels}
    return labelled


def with_text_labels(article: Article) -> Article:
    """`article` with the labels its description and lead give for the aspects it has none of (an import's own
    labels are never replaced). Read as an unfiled article's: a person needs a person's dates, an occupation
    and a country in the description, a place a place's head and a country."""
    if not article.description and not article.text:
        return article
    found = text_labels(article.title, article.description, NO_TOPIC, article.text)
    add = {aspect: tuple(labels) for aspect, labels in found.labels.items() if aspect not in article.aspects}
    if not add:
        return article
    return dataclasses.replace(article, aspects={**article.aspects, **add},
                               sources={**article.sources, **origins(add, found.sources)})
