"""When, read off a non-person's description: every date form gives the right century or none, never a wrong one."""
from __future__ import annotations

import pytest

from explore.corpus.era import era_of, era_of_lead


@pytest.mark.parametrize("description, centuries", [
    ("1861–1865 conflict in the United States", ["19th century"]),
    ("Global conflict from 1914 to 1918", ["20th century"]),
    ("Revolution in France from 1789 to 1799", ["18th century"]),
    ("1968 film by Stanley Kubrick", ["20th century"]),
    ("Kingdom in Eastern Europe (1199–1349)", ["12th century"]),  # three centuries: where it began
    ("Principality of Russia (1125–1189)", ["12th century"]),
    ("755–763 uprising against Tang rule in China", ["8th century"]),
    ("Wars between Rome and Carthage (264–146 BC)", ["3rd century BC", "2nd century BC"]),
    ("Ancient Iranian empire, 550–330 BC", ["6th century BC"]),  # three centuries: where it began
    ("Period of Chinese history, c. 475 – 221 BC", ["5th century BC"]),
    ("Greek civilization from 1200 BC to 600 AD", ["12th century BC"]),
    ("Eruption of Vesuvius in AD 79", ["1st century"]),
    ("Artwork series by Andy Warhol (1961–62)", ["20th century"]),
    ("1930s period of severe dust storms in North America", ["20th century"]),
    ("19th-century Anglo-Russian confrontation", ["19th century"]),
    ("5th century BC history book by Thucydides", ["5th century BC"]),
    ("15th–16th-century European architectural style", ["15th century", "16th century"]),
    ("12th- and 13th-century crusades around the Baltic Sea", ["12th century", "13th century"]),
    ("Colonial expansion in late 19th and early 20th centuries", ["19th century", "20th century"]),
    ("Climatic cooling after the Medieval Warm Period (16th–19th centuries)", ["16th century"]),
    ("Ancient Iranian civilization (6th century BCE – 11th century CE)", ["6th century BC"]),
    ("British government statement of 1917", ["20th century"]),
    ("Power in East Asia from 618 to 842/848", ["7th century"]),
    ("Roman Republic (c. 509 – 27 BC)", ["6th century BC"]),
    ("1095 CE book by al-Ghazali", ["11th century"]),
])
def test_dates_give_their_century(description, centuries):
    assert era_of(description) == centuries


@pytest.mark.parametrize("description", [
    "Orbit around Earth between 160 and 2000 km",  # distances
    "Chemical element with atomic number 89 (Ac)",  # an atomic number
    "Mass extinction event about 66 million years ago",  # geological time
    "City with 1500 inhabitants",  # a population
    "Mountain 8848 m high",  # a height
    "Calendar year AH 1300",  # another calendar
    "Era of the Shaka calendar from 78",
    "Reign of Louis XIV",  # a regnal number, a roman numeral
    "Events of the XIV century",  # a roman-numeral century
    "Group of 20",  # a count
    "Novel by George Orwell",  # "1984" is in the title, not the description
    "Boeing 747 airliner",  # a model number
    "Opus 131 by Beethoven",
    "Highway 61 in the United States",
    "Temperature of 1500 degrees",
    "Wavelengths of 400 to 700 nm",
    "",
])
def test_numbers_that_are_not_years_give_none(description):
    assert era_of(description) == []


def test_a_lead_is_read_only_where_it_says_what_the_thing_is_with_a_year():
    assert era_of_lead("Psycho is a 1960 American horror film directed by Alfred Hitchcock. It was remade in "
                       "1998.") == ["20th century"]
    assert era_of_lead("Nineteen Eighty-Four is a dystopian novel by George Orwell, published in 1949.") == []
    assert era_of_lead("Salt is a mineral. About 1300 people mine it.") == []
    assert era_of_lead("") == []
