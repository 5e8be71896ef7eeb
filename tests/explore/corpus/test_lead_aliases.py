"""Aliases from a lead's first sentence: the other names it gives before saying what its subject is."""
import pytest

from explore.corpus.lead_aliases import lead_aliases


@pytest.mark.parametrize("title, lead, aliases", [
    ("World War II", "World War II, or the Second World War, was a global conflict between two coalitions.",
     ("Second World War",)),
    ("World War I", "World War I, or the First World War, also known as the Great War, was a global conflict.",
     ("First World War", "Great War")),
    ("United States", "The United States of America (USA), also known as the United States (U.S.) or America, "
     "is a country primarily located in North America.", ("United States of America", "USA", "U.S.", "America")),
    ("Mahatma Gandhi", "Mohandas Karamchand Gandhi was an Indian lawyer.", ("Mohandas Karamchand Gandhi",)),
    ("Pelé", "Edson Arantes do Nascimento, better known by his nickname Pelé, was a Brazilian footballer.",
     ("Edson Arantes do Nascimento",)),
    ("Tokyo", "Tokyo, officially the Tokyo Metropolis, is the capital of Japan.", ("Tokyo Metropolis",)),
    ("Wolfgang Amadeus Mozart", "Wolfgang Amadeus Mozart (27 January 1756 – 5 December 1791), baptised as Johannes "
     "Chrysostomus Wolfgangus Theophilus Mozart, was a prolific composer.",
     ("Johannes Chrysostomus Wolfgangus Theophilus Mozart",)),
    ("Glasses", "Glasses, also known as eyeglasses, spectacles, or colloquially as specs, are vision eyewear.",
     ("eyeglasses", "specs")),  # lower case only after a connective: not the bare "spectacles"
    ("Jesse Owens", 'James Cleveland "Jesse" Owens was an American track and field athlete.',
     ("James Cleveland Jesse Owens",)),
    ("Particle detector", "In experimental and applied particle physics, nuclear physics, and nuclear engineering, "
     "a particle detector, also known as a radiation detector, is a device.", ("radiation detector",)),
])
def test_the_first_sentence_gives_the_other_names(title, lead, aliases):
    assert lead_aliases(title, lead) == aliases


@pytest.mark.parametrize("title, lead", [
    ("Albert Einstein", "Albert Einstein was a German-born theoretical physicist."),
    ("Hat", "A hat is a head covering."),
    ("Algebraic number field", "In mathematics, an algebraic number field is an extension field."),  # context only
    ("Electromotive force", "Electromotive force, denoted , is an energy transfer."),  # "denoted" is no name
    ("The Nutcracker", "The Nutcracker, Op. 71, is an 1892 two-act classical ballet."),  # numbers are no name
    ("Thermodynamic cycle", "A thermodynamic cycle consists of linked sequences of processes. It is a cycle."),
    ("Amaterasu", "Amaterasu, or Amaterasu for short in Japanese lore, is the goddess of the sun."),
    ("Chitin", "Chitin (KY-tin) is a long-chain polymer."),  # a respelling says how it sounds
])
def test_a_lead_without_other_names_gives_none(title, lead):
    assert lead_aliases(title, lead) == ()


@pytest.mark.parametrize("title, lead, aliases", [
    ("Industrialisation", "Industrialisation (UK) or industrialization (US) is the period of social change.",
     ("industrialization",)),
    ("Peanut", "The peanut, also known as the groundnut or monkey nut (UK), is a legume crop.",
     ("groundnut", "monkey nut")),
    ("Military organization", "Military organization (AE) or military organisation (BE) is the structuring of forces.",
     ("military organisation",)),
    ("Railway track", "Railway track (CwthE and UIC terminology) or railroad track (NAmE), also known as permanent way "
     '(BrE and Indian English), is the structure on a railway.', ("railroad track", "permanent way")),
    ("Coordinated Universal Time", "Coordinated Universal Time (UTC) is the primary time standard.", ("UTC",)),
    ("Karate", "Karate (空手) is a martial art.", ("空手",)),
    ("Friedrich Wöhler", "Friedrich Wöhler FRS(For) HonFRSE was a German chemist.",
     ("Friedrich Wöhler FRS HonFRSE",)),
])
def test_a_bracket_that_says_where_a_word_is_used_is_no_name_but_an_abbreviation_of_the_name_is(title, lead, aliases):
    assert lead_aliases(title, lead) == aliases
