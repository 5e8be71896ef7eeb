from explore.corpus.mention_links import build_title_index, mention_links

TITLES = [
    ("New_York_City", "New York City"),
    ("New_York_(state)", "New York (state)"),
    ("York", "York"),
    ("Theoretical_physics", "Theoretical physics"),
    ("Physics", "Physics"),
    ("Mercury_(planet)", "Mercury (planet)"),
    ("Hans_Krebs_(biochemist)", "Hans Krebs (biochemist)"),
    ("Capital_(economics)", "Capital (economics)"),
    ("Art", "Art"),
    ("War", "War"),
    ("Self", "Self"),
]
INDEX = build_title_index(TITLES)


def links(text, self_id="Self"):
    return mention_links(text, self_id, INDEX)


def test_longest_match_first_and_order_of_first_mention():
    assert links("He moved from York to New York City, then York again.") == ["York", "New_York_City"]


def test_lowercase_common_nouns_match_but_short_words_do_not():
    assert links("A theoretical physics of art and war; physics too.") == ["Theoretical_physics", "Physics"]


def test_disambiguated_titles():
    assert links("Hans Krebs studied Mercury and capital.") == ["Hans_Krebs_(biochemist)"]
    # the multi-word base of "New York (state)" is a name, so it matches
    assert links("New York is a state.") == ["New_York_(state)"]


def test_word_boundaries_and_self_links():
    assert links("Yorkshire and Physicsland and Self-made Self.") == []
