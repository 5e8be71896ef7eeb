"""The links column: common-word mentions the lead is not about are hidden; links are ordered by
similarity to the seed unless the corpus ranks them (explore/links_column.py)."""
import numpy as np

from explore.corpus.model import Article, Corpus, Provenance
from explore.links_column import MIN_NEAR, hidden_note, links_description, seed_links

LEAD = "Marie Curie shared the Nobel Prize in Physics with her husband Pierre Curie, for work on radium."
LINKS = ("Husband", "Physics", "Pierre_Curie", "Radium", "Missing", "Curie", "Radium")


def corpus(links: str = "mentions", **details) -> Corpus:
    named = [Article("Curie", "Marie Curie", LEAD, links=LINKS), Article("Husband", "Husband", "A married man."),
             Article("Physics", "Physics", "The science of matter."),
             Article("Pierre_Curie", "Pierre Curie", "A physicist."),
             Article("Radium", "Radium", "A chemical element.")]
    filler = [Article(f"f{i}", f"Filler {i}", "Something else.") for i in range(MIN_NEAR + 10)]
    return Corpus("tiny", named + filler, Provenance("test", "2026-01-01", links=links, details=details))


def similarities(c: Corpus) -> np.ndarray:
    """Pierre closest, then radium, physics; the husband below every filler article."""
    values = {"Curie": 1.0, "Pierre_Curie": 0.9, "Radium": 0.8, "Physics": 0.5, "Husband": -0.5}
    return np.array([values.get(a.id, 0.1) for a in c.articles])


def test_common_word_mentions_far_from_the_seed_are_hidden_and_the_rest_ordered_by_similarity():
    c = corpus()
    links = seed_links(c, c["Curie"], similarities(c))
    assert links.hidden == ("Husband",)  # "husband" in lower case only, and far from the seed
    assert links.ids == ("Pierre_Curie", "Radium", "Physics")  # "radium" is lower case too, but near: kept
    assert links.by_similarity
    assert hidden_note(c, links.hidden) == "Hidden (common words the lead is not about): husband."


def test_real_hyperlinks_are_never_hidden_but_are_ordered_by_similarity():
    c = corpus("hyperlinks")
    assert seed_links(c, c["Curie"], similarities(c)).ids == ("Pierre_Curie", "Radium", "Physics", "Husband")


def test_hyperlinks_are_ordered_by_the_cosines_of_the_linked_rows_alone():
    c = corpus("hyperlinks")
    linked = {c.position[i]: float(similarities(c)[c.position[i]]) for i in ("Husband", "Physics", "Pierre_Curie",
                                                                              "Radium")}
    assert seed_links(c, c["Curie"], linked) == seed_links(c, c["Curie"], similarities(c))


def test_a_corpus_that_ranks_its_links_keeps_their_order_and_without_similarities_links_come_as_stored():
    c = corpus("hyperlinks", link_order="ranked")
    ranked = seed_links(c, c["Curie"], similarities(c))
    assert ranked.ids == ("Husband", "Physics", "Pierre_Curie", "Radium") and not ranked.by_similarity
    plain = seed_links(corpus(), corpus()["Curie"], None)
    assert plain.ids == ("Husband", "Physics", "Pierre_Curie", "Radium") and plain.hidden == ()


def test_a_small_corpus_hides_nothing():
    small = Corpus("small", corpus().articles[:20], corpus().provenance)
    assert seed_links(small, small["Curie"], similarities(small)).hidden == ()


def test_the_description_says_how_links_are_ordered():
    assert links_description(corpus(), True).endswith("ordered by similarity to the seed.")
    assert "approximation" in links_description(corpus(), True)
    assert links_description(corpus("hyperlinks"), False) == "The articles this one links to, in the source's order."


def test_common_words_named_in_passing_are_hidden_unless_the_lead_is_closely_about_them():
    import json

    from explore.corpus.mention_links import COMMON_WORDS_DETAIL
    lead = ("World War II, or the Second World War, was the deadliest conflict in history; "
            "it spread disease and total war to Japan and the Greater Tokyo Area.")
    named = [Article("WW2", "World War II", lead, links=("Second", "History", "Disease", "War", "Japan", "Area")),
             *(Article(i, i, f"About {i}.") for i in ("Second", "History", "Disease", "War", "Japan", "Area"))]
    filler = [Article(f"f{i}", f"Filler {i}", "Something else.") for i in range(6000)]  # 10%: 601, 1%: 60
    common = json.dumps(["Area", "Disease", "History", "Second", "War"])
    c = Corpus("wars", named + filler, Provenance("test", "2026-01-01", links="mentions",
                                                  details={COMMON_WORDS_DETAIL: common}))
    # all near the seed (nearest 10%); War and Japan among its nearest 1%, History and Disease behind 100 fillers
    values = {"WW2": 1.0, "War": 0.95, "Japan": 0.9, "Second": 0.92, "Area": 0.91, "History": 0.6, "Disease": 0.6}
    values.update({f"f{i}": 0.7 for i in range(100)})
    links = seed_links(c, c["WW2"], np.array([values.get(a.id, 0.1) for a in c]))
    assert set(links.hidden) == {"Second", "Area", "History", "Disease"}  # inside longer names; lower case, not close
    # "total war" in lower case and the lead closely about war: kept, but every "War" it names is World War II's,
    # so it comes after the links the lead names on their own
    assert links.ids == ("Japan", "War")
    assert seed_links(corpus(), corpus()["Curie"], similarities(corpus())).hidden == ("Husband",)  # no list: as before


def test_a_nickname_or_a_name_holding_the_title_ranks_its_link_last():
    from explore.links_column import named_only_within_names

    lead = ('Paris is the capital of France. Nicknamed the "City of Light", partly for its role in the Age of '
            'Enlightenment, it is a Founding Father of fashion and the Father of His Country of cuisine.')
    assert named_only_within_names("Light", lead) and named_only_within_names("City", lead)
    assert named_only_within_names("Father", lead)  # "a Founding Father", "the Father of His Country"
    assert not named_only_within_names("France", lead)  # "capital of France": named on its own
    assert named_only_within_names("War", "World War II, or the Second World War, was a global war.")
    assert not named_only_within_names("War", "War is a conflict. The Second World War was one.")
    assert not named_only_within_names("Rodent", "A mouse is a small rodent.")  # never written as a name
    named = [Article("Paris", "Paris", lead, links=("Light", "France", "Age_of_Enlightenment")),
             Article("Light", "Light", "Electromagnetic radiation."), Article("France", "France", "A country."),
             Article("Age_of_Enlightenment", "Age of Enlightenment", "A movement.")]
    filler = [Article(f"f{i}", f"Filler {i}", "Something else.") for i in range(MIN_NEAR + 10)]
    c = Corpus("tiny", named + filler, Provenance("test", "2026-01-01", links="mentions",
                                                  details={"common_word_titles": '["Light"]'}))
    sims = np.array([{"Paris": 1.0, "Light": 0.9, "France": 0.6, "Age_of_Enlightenment": 0.5}.get(a.id, 0.1)
                     for a in c.articles])
    links = seed_links(c, c["Paris"], sims)
    assert links.ids == ("France", "Age_of_Enlightenment", "Light") and links.hidden == ()  # last, never hidden
    hyper = Corpus("tiny", c.articles, Provenance("test", "2026-01-01", links="hyperlinks"))
    assert seed_links(hyper, hyper["Paris"], sims).ids[0] == "Light"  # a real hyperlink is the link it says
