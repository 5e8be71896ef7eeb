"""The panel's data: the seed's card, the trail, the notes and the mix, as plain values the script draws as text."""
from app_views.cards import INFERRED_HELP, INFERRED_LEGEND
from app_views.columns import draw_columns
from app_views.explore_panel.mix_controls import mix_data
from app_views.explore_panel.panel_data import panel_data
from app_views.explore_panel.seed_card import seed_card_data
from app_views.explore_panel.trail_data import trail_data
from app_views.trail import Trail
from app_views.view_state import ExploreView
from explore.corpus.model import Article
from explore.neighbours import Neighbourhood
from explore.query import Blend
from explore.seed_view import ViewSettings, seed_view
from tests.app_pages.conftest import fixture_engine
from tests.fixture_corpora import fixture_corpus


def test_the_seed_card_keeps_inferred_labels_apart_and_names_the_site_it_links_to():
    article = Article("a", "A <b>", "Lead.", description="desc",
                      aspects={"country": ("France",)}, inferred={"topic": ("People",), "country": ("Spain",)})
    card = seed_card_data(article)
    assert card["title"] == "A <b>" and card["description"] == "desc" and card["text"] == "Lead."
    # an inferred label shows only where the source has none, said so
    assert card["labels"] == [{"text": "country: France", "inferred": False, "help": ""},
                              {"text": "topic: People · inferred", "inferred": True,
                               "help": "A <b>'s topic is " + INFERRED_HELP}]
    assert card["legend"] == INFERRED_LEGEND and "not in the source data" in card["legend"]
    assert card["url"] == "" and card["read_label"] == ""
    wiki = seed_card_data(Article("b", "B", "x", url="https://en.wikipedia.org/wiki/B"))
    assert wiki["read_label"] == "Read “B” on Wikipedia" and wiki["labels"] == []
    assert wiki["legend"] == ""  # nothing inferred on the page: nothing to explain
    assert seed_card_data(Article("b", "B", "x"), cards_inferred=True)["legend"] == INFERRED_LEGEND


def test_the_trail_marks_each_crumb_and_enables_only_the_steps_there_are():
    corpus = fixture_corpus()
    trail = Trail()
    for seed in ("p1", "p2", "p3"):
        trail.visit(seed)
    trail.jump(1)
    data = trail_data(corpus, trail)
    assert (data["back"], data["forward"]) == (True, True)
    assert [(c["title"], c["place"]) for c in data["crumbs"]] == [("Person 1", "behind"), ("Person 2", "here"),
                                                                  ("Person 3", "ahead")]
    assert trail_data(corpus, Trail()) == {"back": False, "forward": False, "crumbs": []}


def test_a_crumb_of_a_10000_character_title_is_one_short_line_with_the_whole_title_on_hover():
    from explore.corpus.model import Corpus, Provenance

    long = "Endless " * 1250
    corpus = Corpus("long", [Article("a", long, "Lead."), Article("b", "Short", "Lead.")], Provenance("test", "2026"))
    trail = Trail()
    for seed in ("a", "b"):
        trail.visit(seed)
    crumbs = trail_data(corpus, trail)["crumbs"]
    assert len(crumbs[0]["title"]) <= 64 and crumbs[0]["title"].endswith("…") and crumbs[0]["full"] == long
    assert crumbs[1]["title"] == "Short" and crumbs[1]["full"] is None  # nothing cut: no tooltip


def test_the_mix_shows_the_seeds_own_aspects_until_changed_and_keeps_other_corpora_weights():
    corpus = fixture_corpus()
    engine = fixture_engine(corpus)
    seed = corpus["p3"]
    def controls(seed, chosen, engine=engine):
        return mix_data(seed_view(engine, seed, "a painter", ViewSettings(3, chosen)), chosen)

    mix = controls(seed, None)
    assert [s["name"] for s in mix["spaces"] if s["on"]] == ["country", "occupation", "generic"]
    assert mix["links"]["share"] == 0.05 and mix["weights"][0]["name"] == "links"
    chosen = controls(seed, Blend.of({"occupation": 1, "elsewhere": 0.5}))
    assert [s["name"] for s in chosen["spaces"] if s["on"]] == ["occupation"]
    assert chosen["elsewhere"] == ["elsewhere"]
    assert controls(None, None)["links"] is None  # free text has no links
    assert controls(seed, None, Neighbourhood(corpus, {})) is None  # no space to mix
    assert mix_data(None, None) is None


def test_the_panel_says_which_columns_are_left_out_and_names_its_seed():
    corpus = fixture_corpus()
    engine = fixture_engine(corpus)
    view = ExploreView(corpus="fixture")
    view.set_seed("p105")  # no labels
    seed = view.seed_article(corpus)
    shown = seed_view(engine, seed, None, ViewSettings(3))
    data = panel_data(corpus, engine, view, shown, draw_columns(engine, shown), lambda article_id: f"?seed={article_id}")
    assert data["seed"] == data["grid"]["seed"] == "Person 105"
    assert data["grid"]["read_more_label"] == "Wikipedia's Read more"  # the fixture's articles are on wikipedia.org
    assert data["notes"] == [[{"text": "Person 105", "style": "em"},
                              {"text": " has no country or occupation label, so the country and occupation spaces "
                                       "are left out.", "style": "plain"}]]
    assert [c["title"] for c in data["trail"]["crumbs"]] == ["Person 105"]
