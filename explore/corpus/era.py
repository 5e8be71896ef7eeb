"""When a thing that is not a person happened, was made or was founded, read off its short description or lead.

Precision first: a number is a year only where the words around it say so (a year before the head, "1861–1865
conflict"; "from 1914 to 1918"; "of 1917"; "(1199–1349)"; "c. 500 BC"; "AD 79"; "the 1960s"; "5th-century").
A population, a height, an atomic number, a count of years ago, a roman numeral or a date in another calendar
gives no label: a wrong century is worse than none.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from explore.corpus.vital_aspects import century_label

# The last year a label may name: a later "year" is a number of something else.
LATEST_YEAR = 2030
# A range that touches more centuries than this is labelled by the century it starts in (a dynasty's founding).
MAX_CENTURIES_SPANNED = 2

_ERA = r"(?:\s*(BCE|BC|CE|AD))?"
_APPROX = r"(?:c\.\s*|ca\.\s*|circa\s+)?"
_YEAR = _APPROX + r"(?:AD\s+)?(\d{1,4})" + _ERA
_DASH = r"\s*(?:–|—|-|to|until)\s*"
_RANGE = _YEAR + r"(?:" + _DASH + _APPROX + r"(?:AD\s+)?(\d{1,4}(?:s)?)(?:/\d{1,4})?" + _ERA + r")?"
# What follows a number that is a quantity, not a year.
_NOT_A_YEAR_AFTER = re.compile(
    r"\s*(?:%|percent|per\b|km|kilo|metres|meters|m\b|ft|feet|miles|kg|tonnes|tons|people|inhabitants|species|"
    r"million|billion|thousand|years?\b|light|AU\b|°|degrees|kelvin|K\b|volts?|watts?|hertz|Hz|"
    r"members|players|strings|sides|dimensions|atoms|electrons|protons|neutrons|carbon|letters|characters|"
    r"times|copies|cases|deaths|languages|countries|states|islands|pages|volumes|books|episodes|seasons)",
    re.I)
_NOT_A_YEAR_BEFORE = re.compile(r"(?:\b(?:number|no\.|element|size|level|type|class|grade|over|about|around|some|"
                                r"nearly|almost|than|approximately|roughly|top|group|page|op\.|opus|chapter|verse|"
                                r"psalm|hijri|shaka|saka)|[#$£€+×])\s*$", re.I)
_CENTURY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)[- ](?:and\s+\d{1,2}(?:st|nd|rd|th)[- ])?centur(?:y|ies)"
                      r"(?:[- ]?(BCE|BC|CE|AD))?", re.I)
_ORDINAL = r"(\d{1,2})(?:st|nd|rd|th)"
# "15th–16th-century", "12th- and 13th-century", "late 19th and early 20th centuries", "4th – 6th century AD"
_CENTURY_RANGE = re.compile(r"\b" + _ORDINAL + r"(?:[- ]centur(?:y|ies))?(?:[- ]?(BCE|BC))?-?\s*(?:–|—|-|to|and|or)\s*"
                            r"(?:the\s+)?(?:early\s+|late\s+|mid-?)?" + _ORDINAL + r"[- ]centur(?:y|ies)"
                            r"(?:[- ]?(BCE|BC|CE|AD))?", re.I)
_DECADE = re.compile(r"\b(1[0-9]|20)(\d)0s\b")
_OTHER_CALENDAR = re.compile(r"\b(?:AH|A\.H\.|Hijri|anno\s+Hegirae|Shaka|Saka|Vikram\s+Samvat|B\.E\.|anno\s+mundi|"
                             r"Japanese\s+era|regnal\s+year)\b", re.I)
_AGO = re.compile(r"\bago\b|\bmillion\b|\bbillion\b|\bMa\b|\bmya\b|\bGa\b", re.I)
# Where a description puts its year: at its start ("1968 film", "1861–1865 conflict", "c. 1600–1750"), in
# brackets ("(1199–1349)", "(c. 2334–2154 BC)"), after a word that introduces a date.
_LEADING = re.compile(r"^\s*" + _RANGE + r"(?=\s+[^\W\d_])")
_BRACKETED = re.compile(r"\(\s*(?:founded\s+|established\s+|built\s+|from\s+|since\s+|r\.\s*)?" + _RANGE + r"\s*\)")
_INTRODUCED = re.compile(r"\b(?:from|since|of|in|during|founded|established|built|completed|"
                         r"published|released|written|composed|painted|begun|started|ended|dated|c\.|circa)\s+"
                         r"(?:the\s+year\s+)?" + _RANGE + r"(?!\s*(?:%|,\d|\.\d|\d))")
_TRAILING = re.compile(r",\s*" + _RANGE + r"\s*$")
# Where a range of years under 1000 without BC/AD is still surely a date: before the head ("755–763 uprising"),
# in brackets, or after a word that introduces dates only.
_SURE_OF_SHORT = re.compile(r"\s*(?:\(|\d|c\.|ca\.|circa|from\b|since\b|founded\b|established\b|built\b)", re.I)
_ROMAN_CENTURY = re.compile(r"\b[IVXLC]+(?:st|nd|rd|th)?\s+century\b")


@dataclass(frozen=True)
class Span:
    """Years read from a text: negative = BC; `end` is None for a single year."""

    start: int
    end: int | None = None

    def centuries(self) -> list[str]:
        """The centuries the span touches when they are at most MAX_CENTURIES_SPANNED, else the one it starts in."""
        first = _century_number(self.start)
        last = _century_number(self.end if self.end is not None else self.start)
        if last < first:
            return []
        if last - first + 1 > MAX_CENTURIES_SPANNED:
            return [century_label(self.start)]
        return [_label_of_number(n) for n in range(first, last + 1)]


def _century_number(year: int) -> int:
    """Signed century number: 1 for AD 1-100, -1 for 100-1 BC (no century 0)."""
    return (year - 1) // 100 + 1 if year > 0 else -((-year - 1) // 100 + 1)


def _label_of_number(number: int) -> str:
    return century_label(number * 100 - 50 if number > 0 else number * 100 + 50)


def _signed(value: str, era: str | None, era_after: str | None) -> int:
    year = int(value)
    marker = era or era_after
    return -year if marker in ("BC", "BCE") else year


def _span_from(match: re.Match) -> Span | None:
    """A Span from a `_RANGE` match: its groups are start, start's era, end, end's era; a trailing BC applies to
    an unmarked start ("264–146 BC"); "1998–99" and "1890s" are read as a reader reads them."""
    start_value, start_era, end_value, end_era = match.groups()[-4:]
    if end_value is None:
        start = _signed(start_value, start_era, None)
        marked = re.search(r"(?:AD|c\.|ca\.|circa)\s*$", match.string[match.start(): match.start(len(match.groups()) - 3)])
        if start_era is None and len(start_value) < 4 and not marked:
            return None  # "AD 79" and "c. 500" say they are years; a bare number of under four digits may be anything
        return _checked(Span(start))
    decade = end_value.endswith("s")
    end_digits = end_value.rstrip("s")
    end = _signed(end_digits, end_era, None)
    start = _signed(start_value, start_era, end_era if start_era is None else None)
    if end_era is None and start_era is None and len(end_digits) < len(start_value) and 0 < end < 100 < start:
        end = start // 100 * 100 + end  # "1998–99", "1961–62"
    if decade:
        end += 9
    if start_era is None and end_era is None and len(start_value) < 4 and not _SURE_OF_SHORT.match(match.group(0)):
        return None  # "of 400 to 700 nm": short unmarked numbers are years only where a date is surely meant
    if start < 0 < end and not (start_era or end_era):
        return None
    return _checked(Span(start, end)) if start <= end else None


def _checked(span: Span) -> Span | None:
    years = [span.start] + ([span.end] if span.end is not None else [])
    if any(abs(y) > LATEST_YEAR or y == 0 for y in years):
        return None
    return span


def _quantity_follows(text: str, match: re.Match) -> bool:
    return bool(_NOT_A_YEAR_AFTER.match(text, match.end()))


def _quantity_precedes(text: str, match: re.Match) -> bool:
    return bool(_NOT_A_YEAR_BEFORE.search(text[: match.start()]))


def era_of(description: str) -> list[str]:
    """The century labels of a non-person's short description; [] where it names no date this reader trusts."""
    text = (description or "").strip()
    if not text or _OTHER_CALENDAR.search(text) or _AGO.search(text) or _ROMAN_CENTURY.search(text):
        return []
    ranged = _CENTURY_RANGE.search(text)
    if ranged:
        first, first_era, last, last_era = ranged.groups()
        bc_last = bool(last_era) and last_era.upper().startswith("BC")
        bc_first = bool(first_era) and first_era.upper().startswith("BC") or (bc_last and not first_era)
        numbers = (-int(first) if bc_first else int(first), -int(last) if bc_last else int(last))
        return Span(_first_year_of(_label_of_number(numbers[0])), _first_year_of(_label_of_number(numbers[1]))).centuries()
    centuries = [m for m in _CENTURY.finditer(text)]
    if centuries:
        labels = []
        for m in centuries:
            number = int(m.group(1))
            bc = bool(m.group(2)) and m.group(2).upper().startswith("BC")
            labels.append(_label_of_number(-number if bc else number))
        between = text[centuries[0].end(): centuries[-1].start()]
        if len(centuries) >= 2 and re.search(r"–|—|-|\bto\b|\buntil\b", between):
            # "6th century BCE – 11th century CE": a long span, labelled by where it starts
            spanned = Span(_first_year_of(labels[0]), _first_year_of(labels[-1]))
            return spanned.centuries()
        return list(dict.fromkeys(labels))
    decade = _DECADE.search(text)
    for pattern in (_LEADING, _BRACKETED, _INTRODUCED, _TRAILING):
        for match in pattern.finditer(text):
            if _quantity_follows(text, match) or (pattern is not _LEADING and _quantity_precedes(text, match)):
                continue
            span = _span_from(match)
            if span is not None:
                return span.centuries()
    if decade and not re.search(r"\d{2}s?\s*(?:°|%)", text):
        year = int(decade.group(1) + decade.group(2) + "0")
        return Span(year, year + 9).centuries()
    return []


def _first_year_of(label: str) -> int:
    number = int(re.match(r"\d+", label).group(0))
    return -(number * 100 - 50) if label.endswith("BC") else number * 100 - 50


_LEAD_YEAR = re.compile(r"\b(?:is|was)\s+(?:an?|the)\s+" + _RANGE + r"\s+[^\W\d_]")


def era_of_lead(lead: str) -> list[str]:
    """The century of a lead's first sentence when it says what the thing is with a year before it ("Psycho is a
    1960 American horror film"); other dates in a lead (a birth, a reform, a statistic) are not read."""
    sentence = re.split(r"(?<=[.!?])\s+(?=[A-Z])", (lead or "").strip(), maxsplit=1)[0]
    if _OTHER_CALENDAR.search(sentence):
        return []
    match = _LEAD_YEAR.search(sentence)
    if not match or _quantity_follows(sentence, match):
        return []
    span = _span_from(match)
    return span.centuries() if span else []


# Wikidata's time precisions (https://www.wikidata.org/wiki/Help:Dates): 7 century, 8 decade, 9 year, 10 month, 11 day.
CENTURY_PRECISION = 7
WIKIDATA_TIME = re.compile(r"([+-]?)0*(\d{1,16})-\d\d-\d\dT")


def century_of_wikidata_time(time: str, precision: int | None = None) -> str | None:
    """The century label of a Wikidata time value ("+1789-07-14T00:00:00Z" → 18th century; "-0500-…" → 6th century
    BC); None for a value less precise than a century (a millennium, "13.8 billion years ago"), year 0, or a year
    beyond LATEST_YEAR (a date that is no date of a thing readers read about)."""
    if precision is not None and precision < CENTURY_PRECISION:
        return None
    match = WIKIDATA_TIME.match(time.strip()) if isinstance(time, str) else None
    if not match:
        return None
    year = int(match.group(2)) * (-1 if match.group(1) == "-" else 1)
    if year == 0 or abs(year) > LATEST_YEAR:
        return None
    if precision == CENTURY_PRECISION and year > 0 and year % 100 == 0:
        year -= 1  # Wikidata writes "the 18th century" as +1800 at century precision (its last year's century)
    return century_label(year)
