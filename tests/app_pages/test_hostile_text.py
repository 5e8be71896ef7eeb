"""Corpus text and URL values written as Markdown/HTML (issue #13, item 4) stay text on every page:
no image, link, raw HTML or bare address in any Markdown the pages show, no tag in any chart label."""
import json

from tests.app_pages.conftest import HOSTILE_HOST, cards, crumbs, grid, map_figures, maps_panel, panel
from tests.app_views.live_markup import live_in_app, live_in_charts, live_in_html_elements, live_markup

EVIL = f"http://{HOSTILE_HOST}"


def test_explore_card_columns_chips_and_trail(app, hostile):
    at = app(corpus="hostile", seed=hostile.articles[0].title)
    seed = panel(at)["seed_card"]
    assert seed["title"] == hostile.articles[0].title and live_in_app(at) == []
    # The panel draws its text with textContent (app_views/explore_panel/explore_panel.js): what it gets must be
    # the text as is, its links only the app's own query strings and http(s) article addresses.
    assert seed["url"] == "" or seed["url"].startswith(("http://", "https://"))
    for column in grid(at)["columns"]:
        for card in column["cards"]:
            assert card["href"].startswith("?") and "javascript:" not in card["href"].lower()
            assert card["url"] == "" or card["url"].startswith(("http://", "https://"))
    cards(at, "links")[0].click().run()
    assert len(crumbs(at)) == 2 and live_in_app(at) == []


def test_url_seed_k_and_blend_in_the_frames_warnings_and_the_sidebar(app, hostile):
    at = app(corpus="hostile", seed=f"![s]({EVIL}/seed.png) <img src={EVIL}/x> {EVIL}/bare",
             k=f"[k]({EVIL}/k)", blend=f"[b]({EVIL}/b):1")
    assert len(at.warning) == 2 and live_in_app(at) == []
    # the blend's unknown space names, kept for other corpora: said under the mix's weights, as text
    at = app(corpus="hostile", seed=hostile.articles[0].title, blend=f"[b]({EVIL}/b):1")
    assert panel(at)["mix"]["elsewhere"] == [f"[b]({EVIL}/b)"] and live_in_app(at) == []


def test_url_free_text_in_the_heading(app, hostile):
    at = app(corpus="hostile", text=f"![t]({EVIL}/text.png) www.attacker.example `x`")
    assert panel(at)["seed_card"]["title"] == f"Free text: “![t]({EVIL}/text.png) www.attacker.example `x`”"
    assert live_in_app(at) == []


def test_maps_hint_legend_seed_label_and_hover(app, hostile):
    seed = hostile.articles[1].title
    at = app("app_pages/maps.py", corpus="hostile", seed=seed)
    assert len(map_figures(at)) == 2
    assert live_in_app(at) == [] and live_in_charts(at) == []
    # The panel draws its text with textContent (app_views/maps_panel, rich_line.js): the seed's title as it is, the
    # list's links only the app's own query strings.
    data = maps_panel(at)
    assert {"text": seed, "style": "em"} in [run for line in data["intro"] for run in line]
    assert data["neighbours"]["seed"] == seed
    assert all(item["explore"].startswith("?") and "javascript:" not in item["explore"].lower()
               for item in data["neighbours"]["items"])


def test_corpus_page_charts_matches_reader_and_links(app, hostile):
    at = app("app_pages/corpus.py", corpus="hostile")
    at.text_input(key="browse_query").input("Image").run()
    charts = [e.proto.body for e in at.get("html") if "an-chart-grid" in e.proto.body]
    assert at.header and at.get("page_link") and [c.count("<figure") for c in charts] == [len(hostile.aspect_names)]
    assert live_in_app(at) == [] and live_in_html_elements(at) == []


def test_evaluation_page_aspect_headings_and_charts(app, hostile, isolated_home, monkeypatch):
    directory = isolated_home / "training" / "reports"
    directory.mkdir(parents=True)
    aspects = hostile.aspect_names
    spaces = {"generic": {f"{pool}/{aspect}/{metric}@10": 0.5 for pool in ("test", "corpus") for aspect in aspects
                          for metric in ("precision", "recall", "mrr", "map")}}
    (directory / "hostile-s42.json").write_text(json.dumps(
        {"corpus": "hostile", "aspects": aspects, "k": 10, "split": {"seed": 42, "train": 30, "test": 13},
         "spaces": spaces, "notes": {"generic": f"note ![n]({EVIL}/note.png)"}}))
    at = app("app_pages/evaluation.py", corpus="hostile")
    assert len(at.tabs) == len(aspects)
    for label in [tab.label for tab in at.tabs]:  # each tab opened in turn (only the open one is drawn)
        at.session_state["eval_tab"] = label
        at.run()
        assert [live for text in [tab.label for tab in at.tabs] for live in live_markup(text)] == []
        assert sum(len(tab.get("html")) for tab in at.tabs) == 1  # the open tab's sentence, table and chart
        assert live_in_app(at) == [] and live_in_html_elements(at) == []  # the tables' cells among them
    at.session_state["eval_row_notes"] = True  # what each row is: the hostile note, as text
    at.run()
    [notes] = [e.proto.body for e in at.get("html") if "What each row is" in e.proto.body]
    assert f"note ![n]({EVIL}/note.png)" in notes and live_in_html_elements(at) == []
    # the maintainers' hint names the aspects without a space, as text
    monkeypatch.setenv("ASPECTNAV_STUDY_PASSWORD", "maintainers only")
    at.session_state["eval_maintainers"] = True
    at.session_state["maintainer_unlocked"] = True  # what the maintainers' password leaves in the session
    at.run()
    assert live_in_app(at) == []
    [maintainers] = [e for e in at.expander if e.label.startswith("For maintainers")]
    assert any(aspects[1] in m.value.replace("\\", "") for m in maintainers.markdown)
