"""Chrome every page shares: the corpus picker, cached loading, the Wikipedia credit, chips."""
from __future__ import annotations

import html

import streamlit as st

from app_views.cards import Card
from explore.corpus import WIKIPEDIA_LICENSE, Corpus, list_corpora, open_corpus
from explore.corpus.model import Article
from explore.errors import AspectNavError

DEFAULT_CORPUS = "vital"


@st.cache_resource(show_spinner="Loading corpus…")
def load_corpus(name: str) -> Corpus:
    return open_corpus(name)


CORPUS = "corpus"  # the chosen corpus's name (session state; the URL's ?corpus= wins when present)


def current_corpus() -> Corpus:
    """The corpus chosen in the sidebar (kept in the URL as ?corpus= when it is not the default)."""
    names = list_corpora()
    wanted = st.query_params.get("corpus")
    if wanted in names and wanted != st.session_state.get(CORPUS):
        if st.session_state.get(CORPUS):
            _forget_seed()
        st.session_state[CORPUS] = wanted
    name = st.session_state.get(CORPUS) if st.session_state.get(CORPUS) in names else DEFAULT_CORPUS
    st.session_state[CORPUS] = st.session_state["corpus_picker"] = name
    st.sidebar.selectbox("Corpus", names, key="corpus_picker", on_change=_corpus_changed)
    if name != DEFAULT_CORPUS:
        st.query_params["corpus"] = name
    elif "corpus" in st.query_params:
        del st.query_params["corpus"]
    return load_corpus(name)


def _corpus_changed() -> None:
    st.session_state[CORPUS] = st.session_state["corpus_picker"]
    st.query_params["corpus"] = st.session_state[CORPUS]
    for key in ("seed", "text"):  # the old corpus's seed; k and blend carry over
        if key in st.query_params:
            del st.query_params[key]
    _forget_seed()


def _forget_seed() -> None:
    """Seeds and trails are ids of one corpus: another corpus starts afresh."""
    for key in (SEED, TEXT, TRAIL, PICKER, WRITTEN):
        st.session_state.pop(key, None)


def wikipedia_credit(corpus: Corpus) -> None:
    st.sidebar.caption(
        f"{WIKIPEDIA_LICENSE}. Source: {corpus.provenance.source} ({corpus.provenance.date})."
    )


def aspect_chips(article: Article) -> str:
    """Markdown badges, one per aspect label."""
    chips = [f":blue-badge[{name}: {label}]" for name, labels in article.aspects.items() for label in labels]
    return " ".join(chips) if chips else "_no aspect labels_"


def shared_chips(card: Card) -> str:
    """The labels a card shares with the seed, highlighted; nothing when it shares none."""
    return " ".join(f":green-badge[{name}: {label}]" for name, labels in card.shared.items() for label in labels)


def link_caption(corpus: Corpus) -> str:
    return {
        "mentions": "Mentioned articles (approximation of the lead's hyperlinks: titles found in the text)",
        "hyperlinks": "Linked articles",
    }.get(corpus.provenance.links, "Links")


def escape_markdown(text: str) -> str:
    """Text from Wikipedia shown as Markdown: no accidental formatting, links or LaTeX."""
    text = html.escape(text, quote=False)
    for char in "\\`*_{}[]<>()#+-.!|$~:":
        text = text.replace(char, "\\" + char)
    return text


# --- the seed, shared by Explore and Maps (per user, in session state; mirrored in the URL) ----------

SEED = "seed_id"          # the current seed's article id, or None
TEXT = "seed_text"        # a free-text seed, or None
TRAIL = "trail"           # app_views.trail.Trail of visited article ids
PICKER = "seed_picker"    # the selectbox's widget key
BLEND_PREFIX = "blend_"   # + space name: the blend sliders' widget keys
VIEW_K = "view_k"         # cards per column and blend weights: plain state, because Streamlit drops a
VIEW_BLEND = "view_blend" # widget's state on pages that do not draw it (Maps has no k or blend sliders)
WRITTEN = "url_written"   # the query we last wrote; a different one was typed or loaded by the user


def _trail():
    from app_views.trail import Trail

    return st.session_state.setdefault(TRAIL, Trail())


def set_seed(article_id: str | None, text: str | None = None) -> None:
    """Make an article (or a free text) the seed; callable from widget callbacks."""
    st.session_state[SEED] = article_id
    st.session_state[TEXT] = None if article_id else text
    if article_id:
        _trail().visit(article_id)
        st.session_state[PICKER] = article_id


def go_back() -> None:
    previous = _trail().back()
    if previous:
        set_seed(previous)  # visiting the trail's current seed again adds nothing to it


def jump_to(index: int) -> None:
    article_id = _trail().jump(index)
    set_seed(article_id)


def adopt_url(corpus: Corpus) -> list[str]:
    """Take seed, k and blend from the URL when the user loaded or typed one; returns problems."""
    from app_views.url_state import parse_query

    query = {key: st.query_params.get(key) for key in st.query_params}
    query.pop("corpus", None)
    if not query or query == st.session_state.get(WRITTEN):
        st.session_state.setdefault(SEED, None)
        st.session_state.setdefault(TEXT, None)
        return []
    state = parse_query(query)
    problems = list(state.problems)
    st.session_state[VIEW_K] = state.k
    st.session_state[VIEW_BLEND] = dict(state.blend)
    if state.seed:
        try:
            set_seed(corpus.find(state.seed).id)
        except AspectNavError as error:  # unknown or ambiguous title: shown to the user as-is
            problems.append(str(error))
            set_seed(None)
    else:
        set_seed(None, state.text)
    st.session_state[WRITTEN] = query
    return problems


def view_k() -> int:
    from app_views.url_state import DEFAULT_K

    return st.session_state.get(VIEW_K, DEFAULT_K)


def view_blend() -> dict[str, float]:
    return dict(st.session_state.get(VIEW_BLEND, {}))


def k_slider() -> int:
    """The k slider, drawn from (and written back to) the view state."""
    from app_views.url_state import MAX_K

    st.session_state["k"] = view_k()
    return st.slider("Cards per column (k)", 1, MAX_K, key="k",
                     on_change=lambda: st.session_state.__setitem__(VIEW_K, st.session_state["k"]))


def blend_sliders(names: list[str]) -> dict[str, float]:
    """One weight slider per blendable space; returns the weights above zero."""
    weights = view_blend()
    if names:
        with st.expander("Blend spaces → custom column", expanded=bool(weights)):
            for name in names:
                st.session_state[BLEND_PREFIX + name] = weights.get(name, 0.0)
                st.slider(name, 0.0, 1.0, step=0.1, key=BLEND_PREFIX + name, on_change=_keep_blend, args=(name,))
    return {name: weights[name] for name in names if weights.get(name, 0.0) > 0}


def _keep_blend(name: str) -> None:
    weights = view_blend()
    weights[name] = st.session_state[BLEND_PREFIX + name]
    st.session_state[VIEW_BLEND] = {space: weight for space, weight in weights.items() if weight > 0}


def write_url(corpus: Corpus, k: int, blend: dict[str, float]) -> None:
    """Mirror the current seed (a title when unique, else the id), k and blend into the URL."""
    from app_views.url_state import ViewState, seed_param, to_query

    seed_id = st.session_state.get(SEED)
    seed = seed_param(corpus.ids_by_title, seed_id, corpus[seed_id].title) if seed_id and seed_id in corpus else None
    query = to_query(ViewState(seed=seed, text=st.session_state.get(TEXT), k=k, blend=blend))
    st.session_state[WRITTEN] = query
    for key in [key for key in st.query_params if key != "corpus" and key not in query]:
        del st.query_params[key]
    for key, value in query.items():
        if st.query_params.get(key) != value:
            st.query_params[key] = value


def seed_article(corpus: Corpus) -> Article | None:
    seed_id = st.session_state.get(SEED)
    return corpus[seed_id] if seed_id and seed_id in corpus else None


def title_options(corpus: Corpus) -> tuple[list[str], dict[str, str]]:
    """Ids in title order and the label of each (titles shared by several articles get their id)."""
    return _title_options(corpus.name, corpus.content_hash, corpus)


@st.cache_resource(show_spinner=False)
def _title_options(name: str, content_hash: str, _corpus: Corpus) -> tuple[list[str], dict[str, str]]:
    labels = {}
    for article in _corpus:
        shared = len(_corpus.ids_by_title[article.title]) > 1
        labels[article.id] = f"{article.title} ({article.id})" if shared else article.title
    return sorted(labels, key=lambda i: labels[i].casefold()), labels


def seed_picker(corpus: Corpus) -> None:
    """Type-ahead over every title, or a free-text seed."""
    ids, labels = title_options(corpus)
    mode = st.radio("Seed", ["Article", "Free text"], horizontal=True, key="seed_mode",
                    index=1 if st.session_state.get(TEXT) else 0, label_visibility="collapsed")
    if mode == "Article":
        if st.session_state.get(SEED) in labels:
            st.session_state[PICKER] = st.session_state[SEED]
        unset = {} if st.session_state.get(PICKER) in labels else {"index": None}
        st.selectbox("Seed article (type to search)", ids, format_func=labels.get, key=PICKER, **unset,
                     placeholder="Type a title, e.g. Marie Curie",
                     on_change=lambda: set_seed(st.session_state[PICKER]) if st.session_state[PICKER] else None)
    else:
        st.session_state.setdefault("seed_text_input", st.session_state.get(TEXT) or "")
        st.text_input("Describe what you want to read about", key="seed_text_input", placeholder="e.g. a French painter of water lilies",
                      on_change=lambda: set_seed(None, st.session_state["seed_text_input"].strip() or None))


# --- the neighbour engine ---------------------------------------------------------------------------


def load_engine(corpus: Corpus):
    """The corpus's neighbour engine (loaded once per corpus), and a message when it is unusable."""
    try:
        return cached_engine(corpus), ""
    except AspectNavError as error:
        return None, str(error)


def cached_engine(corpus: Corpus):
    """The engine every page of this server shares (raises AspectNavError when unusable)."""
    return _engine(corpus.name, corpus.content_hash, corpus)


@st.cache_resource(show_spinner="Loading spaces…")
def _engine(name: str, content_hash: str, _corpus: Corpus):
    from app_views.columns import open_engine

    return open_engine(_corpus)


def open_seed_page(title: str):
    """The opening shared by the seed pages: corpus, credit, URL state, engine, title and URL problems.
    Returns (corpus, engine or None, why the engine is unusable)."""
    corpus = current_corpus()
    wikipedia_credit(corpus)
    problems = adopt_url(corpus)
    engine, engine_problem = load_engine(corpus)
    st.title(title)
    for problem in problems:
        st.warning(problem)
    return corpus, engine, engine_problem


def blend_space_names(engine) -> list[str]:
    from app_views.columns import blendable_spaces

    return blendable_spaces(engine) if engine is not None else []
