"""Where, when and what kind for an article that is neither a person nor a place: an event, a work, a dynasty, a
dish, a species. Read off its short description first, then its lead's first sentence (where and when only).

Any corpus with descriptions or leads gets them (vital's build, `corpus import`, `import-dump`). The aspects keep
the names readers already know: `country` (where), `century` (when), and the new `kind` (what kind).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from explore.corpus.era import era_of, era_of_lead
from explore.corpus.kinds import kind_of
from explore.corpus.label_source import LabelSource
from explore.corpus.vital_aspects import WORD, WORD_DASH, countries_named, demonym_countries, first_sentence

WHERE_ASPECT, WHEN_ASPECT, KIND_ASPECT = "country", "century", "kind"
# The lead's "is a/an/the …" up to where a clause or a second thought starts: the predicate that says what it is.
LEAD_PREDICATE = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the)\s+([^.;]*?)(?:,|\s+(?:that|which|who|whose|"
                            r"where|but|and\s+(?:is|was|has|it))\b|[.;]|$)")
# Demonyms that say how a thing is made or what language it is in, not where: kept from the lead's reading.
NOT_WHERE_AFTER = re.compile(r"^\s*(?:language|languages|script|alphabet|numerals|-speaking|-language)\b", re.I)


@dataclass
class LabelledAspects:
    """Labels per aspect and where each aspect's came from (a `LabelSource`)."""

    labels: dict[str, list[str]] = field(default_factory=dict)
    sources: dict[str, LabelSource] = field(default_factory=dict)

    def add(self, aspect: str, labels: list[str], source: LabelSource) -> None:
        """Labels for an aspect that has none yet (the first source to give one wins)."""
        if labels and aspect not in self.labels:
            self.labels[aspect] = list(dict.fromkeys(labels))
            self.sources[aspect] = source


def where_of(text: str) -> list[str]:
    """Countries a description names or whose demonyms it uses ("1960 American horror film" → United States,
    "Revolution in France" → France); a demonym that names a language ("… used for Chinese", "Chinese
    language") gives none."""
    if not text.strip():
        return []
    words = WORD.findall(WORD_DASH.sub("-", text))
    demonyms, used = demonym_countries(words)
    # "… used for Chinese", "Chinese language": a demonym naming a language is no place
    naming_a_language = [i for i in used if i == len(words) - 1 or NOT_WHERE_AFTER.match(" ".join(words[i + 1:]))]
    dropped = {country for i in naming_a_language for country in demonym_countries([words[i]])[0]}
    demonyms = [country for country in demonyms if country not in dropped]
    return list(dict.fromkeys(demonyms + countries_named(text, use_subdivisions=False)))


def lead_where(lead: str) -> list[str]:
    """Countries in what the lead's first sentence says the thing is ("… is a 1960 American horror film")."""
    match = LEAD_PREDICATE.search(first_sentence(lead or ""))
    return where_of(match.group(1)) if match else []


def thing_aspects(description: str, lead: str) -> LabelledAspects:
    """where, when and what kind of a non-person, non-place article (see the module's docstring)."""
    found = LabelledAspects()
    description = (description or "").strip()
    found.add(WHERE_ASPECT, where_of(description), LabelSource.DESCRIPTION)
    found.add(WHEN_ASPECT, era_of(description), LabelSource.DESCRIPTION)
    found.add(KIND_ASPECT, kind_of(description), LabelSource.DESCRIPTION)
    found.add(WHERE_ASPECT, lead_where(lead), LabelSource.LEAD)
    found.add(WHEN_ASPECT, era_of_lead(lead), LabelSource.LEAD)
    return found
