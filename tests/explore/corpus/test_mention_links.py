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


def test_a_one_word_title_named_only_in_lower_case_is_a_common_word():
    from explore.corpus.mention_links import named_only_as_common_word

    text = "She shared the Nobel Prize in Physics with her husband, for their joint researches on radium."
    assert named_only_as_common_word("Husband", text) and named_only_as_common_word("Radium", text)
    assert not named_only_as_common_word("Physics", text)  # written as a name here
    assert not named_only_as_common_word("Nobel Prize", text)  # multi-word titles are specific
    assert not named_only_as_common_word("Chemistry", text)  # not mentioned at all
    assert not named_only_as_common_word("physics", text)  # a lower-case title is no name to tell apart


def test_common_word_titles_come_from_how_the_corpus_writes_them():
    from explore.corpus.mention_links import common_word_titles
    texts = ["It took a second look at the history of the area.", "A second time, and in history.",
             "Japan and Korea met in the Second World War.", "Trade with Japan grew; the area grew."]
    assert common_word_titles(["Second", "History", "Area", "Japan", "Korea", "World War II"], texts) == [
        "Area", "History", "Second"]  # lower case mostly; Japan and Korea only as names


def test_a_title_named_only_inside_longer_names_or_in_lower_case_is_named_in_passing():
    from explore.corpus.mention_links import named_only_in_passing, named_only_inside_longer_names
    lead = "The Second World War reached the Greater Tokyo Area. Japan lost; history was made. War ended."
    assert named_only_inside_longer_names("Second", lead) and named_only_inside_longer_names("Area", lead)
    assert named_only_in_passing("History", lead) and not named_only_inside_longer_names("History", lead)
    assert not named_only_in_passing("Japan", lead) and not named_only_in_passing("War", lead)  # on their own
