"""A small fixture corpus with aspect labels and links, stored in the test's data home, and a
neighbour engine over hand-made spaces (labels + noise), so page tests need no model or assets."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from app_views import engine_cache
from explore.corpus.model import Corpus
from explore.corpus.registry import store_corpus
from explore.neighbours import Neighbourhood
from explore.spaces import Space
from tests.fixture_corpora import fixture_corpus, hostile_corpus

APP = str(Path(__file__).resolve().parents[2] / "app.py")


class FixedEncoder:
    """Stands in for a model: returns precomputed vectors (free text is refused by the registry)."""

    def __init__(self, vectors: np.ndarray, fingerprint: str):
        self.vectors = vectors
        self.fingerprint = fingerprint

    def encode(self, texts, progress=True):
        return self.vectors


def fixture_engine(corpus: Corpus) -> Neighbourhood:
    rng = np.random.default_rng(0)
    n = len(corpus)

    def one_hot(aspect):
        values = list(dict.fromkeys(label for article in corpus for label in article.labels(aspect)))
        matrix = np.zeros((n, len(values)), dtype=np.float32)
        for row, article in enumerate(corpus):
            for label in article.labels(aspect):
                matrix[row, values.index(label)] = 3.0
        return matrix

    noise = lambda dim: rng.normal(size=(n, dim)).astype(np.float32)  # noqa: E731
    vectors = {"generic": noise(16)}
    for aspect in ("country", "occupation"):  # any other aspect has no space: the pages say so
        if aspect in corpus.aspect_names:
            vectors[aspect] = np.hstack([one_hot(aspect), noise(8)])
    spaces = []
    for name, matrix in vectors.items():
        kind = "generic" if name == "generic" else "aspect"
        spaces.append(Space(name, kind, "fixture").fit(corpus, encoder=FixedEncoder(matrix, f"fixture-{name}"),
                                                      progress=False))
    return Neighbourhood(corpus, spaces)


def engine_opener(monkeypatch, open_engine) -> None:
    """Make the app's engine cache open engines with `open_engine(corpus)` instead of reading spaces."""

    class Opener:
        @classmethod
        def open(cls, corpus, progress=True):
            return open_engine(corpus)

    monkeypatch.setattr(engine_cache, "Neighbourhood", Opener)


@pytest.fixture
def app(isolated_home, monkeypatch):
    """An AppTest on the fixture corpus; `app(page, **query)` runs it once."""
    engines = {}
    engine_opener(monkeypatch, lambda corpus: engines.setdefault(corpus.name, fixture_engine(corpus)))
    store_corpus(fixture_corpus())
    store_corpus(fixture_corpus("plain", aspects=False))
    st.cache_resource.clear()

    def run(page: str | None = None, **query) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params["corpus"] = query.pop("corpus", "fixture")
        for key, value in query.items():
            at.query_params[key] = value
        if page:
            at.switch_page(page)
        at.run()
        assert not at.exception, at.exception
        return at

    yield run
    st.cache_resource.clear()


HOSTILE_HOST = "127.0.0.1:9"  # the discard port; AppTest renders nothing, the browser test serves a real one


@pytest.fixture
def hostile(app):
    """`app`, with the hostile corpus (tests/fixture_corpora.py) stored too; returns that corpus."""
    corpus = hostile_corpus(HOSTILE_HOST)
    store_corpus(corpus)
    return corpus


# --- Maps' charts (one component element per map; app_views/map_chart) ------------------------------------


def _read(value):
    """Plotly JSON with its typed arrays ({dtype, bdata}) as lists, as the maps' renderer reads it."""
    import base64

    if isinstance(value, dict) and set(value) == {"dtype", "bdata"}:
        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]).newbyteorder("<")
                             ).tolist()
    if isinstance(value, dict):
        return {key: _read(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_read(item) for item in value]
    return value


def maps_panel(at: AppTest) -> dict:
    """The data the Maps page gave its panel (app_views/maps_panel): maps, list, texts ({} when it drew none)."""
    import json

    from app_views.maps_panel import COMPONENT_NAME

    panels = [e for e in at.get("bidi_component") if e.proto.component_name == COMPONENT_NAME]
    return json.loads(panels[0].proto.json) if panels else {}


def map_figures(at: AppTest) -> list[dict]:
    """The figures the Maps page drew in its maps, left then right, as plotly JSON: the labelled points sent under
    each figure, then the figure's own traces (the renderer's order)."""
    import json

    figures = []
    for data in maps_panel(at).get("maps", []):
        figure = _read(json.loads(data["spec"]))
        figure["data"] = _read(json.loads(data["under"])) + figure["data"]
        figures.append(figure)
    return figures


def map_neighbour_list(at: AppTest) -> dict:
    """The data the Maps page gave its neighbour list ({} when it drew none)."""
    return maps_panel(at).get("neighbours") or {}


def map_captions(at: AppTest) -> list[str]:
    """The Maps page's captions as a reader reads them, *emphasis* and **strong** marked as Markdown would: the lines
    above the maps (one text), each map's caption, the notes under them (one text), then the page's own st.caption
    elements (a map's progress)."""
    marks = {"em": "*", "strong": "**", "code": "`", "plain": ""}

    def text(lines) -> str:
        return "\n\n".join("".join(f"{marks[run['style']]}{run['text']}{marks[run['style']]}" for run in line)
                             for line in lines)

    data = maps_panel(at)
    texts = [text(data["intro"])] if data.get("intro") else []
    texts += [text([shown["caption"]]) for shown in data.get("maps", [])]
    texts += [text(data["notes"])] if data.get("notes") else []
    return texts + [c.value for c in at.caption]


def map_settings(at: AppTest) -> dict:
    """The Maps page's settings as it drew them (app_views/map_controls): control key -> its JSON."""
    import json

    from app_views.map_controls import COMPONENT_NAME

    drawn = [e for e in at.get("bidi_component") if e.proto.component_name == COMPONENT_NAME]
    return {control["key"]: control for control in json.loads(drawn[0].proto.json)["controls"]} if drawn else {}


def set_map_setting(at: AppTest, key: str, value) -> AppTest:
    """What the settings' script sends when the reader sets the control `key` to `value`, read against the controls
    the page drew and kept as the page's callback keeps it; `.run()` the result as the page reruns."""
    from app_views.map_controls.events import CHANGE, change_parser, control_of

    change = change_parser([control_of(c) for c in map_settings(at).values()])(CHANGE, {"key": key, "value": value})
    assert change is not None, (key, value)
    at.session_state[change.key] = change.value
    return at


# --- Explore's panel (one component element; app_views/explore_panel) ------------------------------------


def panel(at: AppTest) -> dict:
    """The data the Explore page gave its panel ({} when the page drew none)."""
    import json

    from app_views.explore_panel import COMPONENT_NAME

    panels = [e for e in at.get("bidi_component") if e.proto.component_name == COMPONENT_NAME]
    return json.loads(panels[0].proto.json) if panels else {}


def grid(at: AppTest) -> dict:
    """The panel's columns and cards ({} when the page drew none)."""
    return panel(at).get("grid", {})


def panel_event(at: AppTest, trigger: str, value) -> AppTest:
    """What the panel's script sends when the reader acts (a card's title: "pick"; the trail: "nav"; the mix:
    "mix"), handled by the same code as the page's callback; `.run()` the result as the page reruns."""
    from app_views.corpus_choice import load_corpus
    from app_views.engine_cache import load_engine
    from app_views.explore_panel.events import apply_event, parse_event
    from app_views.view_session import VIEW_KEY

    view = at.session_state[VIEW_KEY]
    corpus = load_corpus(view.corpus)
    event = parse_event(trigger, value)
    assert event is not None, (trigger, value)
    apply_event(view, corpus, load_engine(corpus)[0], view.seed_article(corpus), event)
    return at


def crumbs(at: AppTest) -> list[str]:
    """The trail's crumbs, the current one in *stars*, one ahead of it in (brackets)."""
    marks = {"here": "*{}*", "ahead": "({})", "behind": "{}"}
    return [marks[c["place"]].format(c["title"]) for c in panel(at).get("trail", {}).get("crumbs", [])]


def mix_pills(at: AppTest) -> list[str]:
    """The mix's pills that are on."""
    return [space["name"] for space in (panel(at).get("mix") or {}).get("spaces", []) if space["on"]]


def mix_weights(at: AppTest) -> dict[str, float]:
    """Each weight as the folded-away weights show it, by name (links: "links")."""
    return {w["name"]: w["value"] for w in (panel(at).get("mix") or {}).get("weights", [])}


def panel_notes(at: AppTest) -> list[str]:
    """The lines under the seed's card (columns left out, aspects without a space), as plain text."""
    return ["".join(run["text"] for run in note) for note in panel(at).get("notes", [])]


class GridCard:
    """One card of the grid as a test sees it: its title (`label`), key `card-<column>-<id>`, and a click that
    sends what the panel sends for it (then the page's rerun: `.click().run()`)."""

    def __init__(self, at: AppTest, column: str, data: dict):
        self.at, self.data = at, data
        self.label, self.id = data["title"], data["id"]
        self.key = f"card-{column}-{data['id']}"

    def click(self) -> AppTest:
        return panel_event(self.at, "pick", self.id)


def cards(at: AppTest, kind: str) -> list[GridCard]:
    """The cards of the column whose query is `kind` (links, generic, aspect:country, blend:…)."""
    return [GridCard(at, column["key"], card) for column in grid(at).get("columns", []) if column["key"] == kind
            for card in column["cards"]]


def headings(at: AppTest) -> list[str]:
    """The grid's column headings, in bold as the page used to write them."""
    return [f"**{column['heading']}**" for column in grid(at).get("columns", [])]


def grid_text(at: AppTest) -> str:
    """Every description, note and card text of the grid, as one string to search."""
    parts = []
    for column in grid(at).get("columns", []):
        parts += [column["heading"], column["description"], column["note"]]
        for card in column["cards"]:
            parts += [card["title"], card["snippet"], *(c["text"] for c in card["shared"]), *card["missing"],
                      "also in: " + ", ".join(card["also_in"])]
    return " ".join(parts)
