"""No dead ends on Explore (AppTest, fixture corpus): the title search forgives typos and case, a URL's
unknown seed offers clickable titles, mode switches clear the other mode, the trail keeps forward history."""
from app_views.one_line_title import one_line_title
from app_views.view_session import VIEW_KEY
from tests.app_pages.conftest import HOSTILE_HOST, cards, crumbs, panel, panel_event
from tests.app_views.live_markup import live_in_app

EVIL = f"http://{HOSTILE_HOST}"


def suggestions(at) -> list[str]:
    return [b.label for b in at.button if b.key and b.key.startswith("suggestion-p")]


def seed_title(at) -> str:
    return panel(at)["seed_card"]["title"]


def trail_steps(at) -> tuple[bool, bool]:
    """Whether back and forward are enabled."""
    trail = panel(at)["trail"]
    return trail["back"], trail["forward"]


def test_a_misspelt_title_is_offered_and_a_click_makes_it_the_seed(app):
    at = app()
    assert "Pick a seed" in at.info[0].value
    at.text_input(key="seed_picker").input("persn 42").run()
    assert suggestions(at)[0] == "Person 42"
    at.button(key="suggestion-p42").click().run()
    assert seed_title(at) == "Person 42" and at.query_params["seed"] == "Person 42"
    # the box is for the next seed: empty again (the seed's card names the seed), no suggestion left
    assert at.text_input(key="seed_picker").value == "" and suggestions(at) == []


def test_another_case_is_the_exact_match_first(app):
    at = app()
    at.text_input(key="seed_picker").input("PERSON 4").run()
    first = at.button(key="suggestion-p4")
    assert suggestions(at)[0] == "Person 4" and first.proto.type == "primary"
    assert suggestions(at)[1].startswith("Person 4")  # then the titles that start with it: Person 40, 41…


def test_a_misspelt_url_seed_offers_a_clickable_title(app):
    at = app(seed="Persn 4")
    assert not panel(at) and "Persn 4" in at.warning[0].value and "Did you mean" in at.warning[0].value
    assert at.text_input(key="seed_picker").value == "Persn 4" and suggestions(at)[0] == "Person 4"
    assert at.query_params["seed"] == "Persn 4"  # kept, so a reload asks again
    at.button(key="suggestion-p4").click().run()
    assert seed_title(at) == "Person 4" and at.query_params["seed"] == "Person 4" and not at.warning


def test_a_url_seed_in_another_case_is_found(app):
    at = app(seed="person 7")
    assert seed_title(at) == "Person 7" and at.query_params["seed"] == "Person 7"


def test_nothing_like_the_query_offers_free_text(app):
    at = app()
    at.text_input(key="seed_picker").input("xyzzy qwv").run()
    assert suggestions(at) == [] and any("No title looks like" in c.value for c in at.caption)
    at.button(key="suggestion-as-text").click().run()
    assert seed_title(at).startswith("Free text") and at.query_params["text"] == "xyzzy qwv"
    assert at.radio(key="seed_mode").value == "Free text"


def test_switching_mode_clears_the_other_modes_results(app):
    at = app(seed="Person 7")
    at.radio(key="seed_mode").set_value("Free text").run()
    assert not panel(at) and not cards(at, "generic") and "seed" not in at.query_params
    assert at.text_input(key="seed_text_input").value == ""
    at.text_input(key="seed_text_input").input("a Japanese painter").run()
    assert seed_title(at).startswith("Free text")
    at.radio(key="seed_mode").set_value("Article").run()
    assert seed_title(at) == "Person 7" and "text" not in at.query_params  # the trail's article again
    at.radio(key="seed_mode").set_value("Free text").run()
    assert at.text_input(key="seed_text_input").value == "" and not panel(at)  # the old text is gone


def test_the_trail_keeps_forward_history_like_a_browser(app):
    at = app(seed="Person 7")
    second = cards(at, "links")[0].label
    cards(at, "links")[0].click().run()
    third = cards(at, "links")[0].label
    cards(at, "links")[0].click().run()
    assert seed_title(at) == third and len(crumbs(at)) == 3 and trail_steps(at) == (True, False)
    panel_event(at, "nav", 0).run()
    assert seed_title(at) == "Person 7" and at.query_params["seed"] == "Person 7"
    # the rest stays, marked as ahead (greyed): forward reaches them again
    assert crumbs(at) == ["*Person 7*", f"({second})", f"({third})"]
    assert trail_steps(at) == (False, True)
    panel_event(at, "nav", "forward").run()
    assert seed_title(at) == second
    panel_event(at, "nav", "back").run()
    trail = at.session_state[VIEW_KEY].trail
    assert seed_title(at) == "Person 7" and len(trail.seeds) == 3
    # a new seed from here drops the forward part, as a browser does
    other = next(card for card in cards(at, "generic") if card.key.rsplit("-", 1)[1] != trail.seeds[1])
    other.click().run()
    assert at.session_state[VIEW_KEY].trail.seeds == ["p7", other.key.rsplit("-", 1)[1]]
    assert trail_steps(at) == (True, False)


def test_hostile_titles_and_queries_stay_text_in_the_search_and_the_trail(app, hostile):
    at = app(corpus="hostile")
    title = hostile.articles[0].title
    at.text_input(key="seed_picker").input(title.upper()).run()
    offered = [b for b in at.button if b.key == f"suggestion-{hostile.articles[0].id}"]
    assert offered and live_in_app(at) == []
    offered[0].click().run()
    # the crumb is the title on one line (cut past ONE_LINE_CHARS, the whole on hover), as text
    assert seed_title(at) == title and crumbs(at) == [f"*{one_line_title(title)}*"] and live_in_app(at) == []
    at.text_input(key="seed_picker").input(f"![x]({EVIL}/q.png) <b>q</b>").run()
    assert at.button(key="suggestion-as-text") and live_in_app(at) == []


def test_the_trail_is_there_from_the_first_seed_with_back_and_forward_greyed(app):
    # A first click then adds no new kind of control to the page (nothing to load, the layout keeps its place).
    at = app(seed="Person 7")
    assert crumbs(at) == ["*Person 7*"]
    assert trail_steps(at) == (False, False)
    assert crumbs(app()) == []  # no seed, no trail
