"""Explore's columns as drawn from the engine's one answer for a seed (explore/seed_view.py): what each column is,
its cards and captions, and the line on the columns left out."""
from app_views.columns import column_description, draw_columns
from explore.neighbours import Neighbourhood
from explore.query import Blend, Query
from explore.seed_view import ViewSettings, seed_view
from tests.fixture_corpora import fixture_corpus


def explore_columns(corpus, engine, seed, text, k, blend=None, read_more=False):
    """The columns Explore draws for `seed` (or free `text`) with these settings; no engine: an engine without
    spaces (links still answer), as the page does."""
    engine = engine if engine is not None else Neighbourhood(corpus, {})
    return draw_columns(engine, seed_view(engine, seed, text, ViewSettings(k, blend, read_more)))


def test_without_an_engine_only_the_links_column_answers():
    corpus = fixture_corpus()
    columns = explore_columns(corpus, None, corpus["p7"], None, 2, blend=Blend.of({"country": 1.0}))
    assert [str(column.query) for column in columns] == ["links"]
    assert [card.title for card in columns[0].cards] == ["Person 8", "Person 12"]


def test_a_map_plan_keeps_the_seed_and_its_neighbours_in_the_sample_and_marks_them():
    from app_views.columns import map_plan, map_side
    from explore.maps import ProjectionParams
    from tests.app_pages.conftest import fixture_engine

    corpus = fixture_corpus()
    engine = fixture_engine(corpus)
    seed = corpus["p7"]
    plan = map_plan(engine, seed, ["generic", "country"], 4, 30)
    in_sample = {corpus.articles[row].id for row in plan.sample.rows}
    assert seed.id in in_sample and all(set(ids) <= in_sample and len(ids) == 4 for ids in plan.neighbours.values())
    points = map_side(engine, plan, "country", seed, "country", ProjectionParams(perplexity=5, n_iter=250))
    roles = dict(zip(points.ids, points.role))
    assert roles[seed.id] == "seed" and {roles[i] for i in plan.neighbours["country"]} == {"neighbour"}
    assert points.coords.shape == (len(plan.sample.rows), 2)


def test_the_missing_spaces_hint_shows_hostile_aspect_names_as_text():
    import shlex

    from app_views.columns import missing_spaces_hint
    from tests.app_pages.conftest import fixture_engine
    from tests.app_views.live_markup import code_spans, live_markup
    from tests.fixture_corpora import hostile_corpus

    corpus = hostile_corpus("evil.example")
    hint = missing_spaces_hint(corpus, fixture_engine(corpus), maintainer=True)  # a country space only
    assert live_markup(hint) == []
    commands = code_spans(hint)  # whole, the backticks in the aspect's name included, quoted for the shell
    missing = [aspect for aspect in corpus.aspect_names if aspect != "country"]
    assert len(commands) == len(missing)  # one command per aspect: a command trains the space of one
    assert all(shlex.quote(aspect) in command for aspect, command in zip(missing, commands))


def test_map_hover_labels_show_hostile_titles_and_labels_as_text():
    from app_views.columns import map_plan, map_side
    from explore.maps import ProjectionParams
    from tests.app_pages.conftest import fixture_engine
    from tests.app_views.live_markup import live_in_figure
    from tests.fixture_corpora import hostile_corpus

    engine = fixture_engine(hostile_corpus("evil.example"))
    plan = map_plan(engine, None, ["generic"], 3, 20)
    points = map_side(engine, plan, "generic", None, "country", ProjectionParams(perplexity=5, n_iter=250))
    assert live_in_figure({"hovertext": points.hover}) == []
    assert all(hover.startswith("<b>") and "<br>" in hover for hover in points.hover)


def test_an_article_seed_gets_the_spaces_of_its_aspects_and_the_mix_third():
    from app_views.columns import left_out_line
    from tests.app_pages.conftest import fixture_engine

    corpus = fixture_corpus()
    engine = fixture_engine(corpus)
    mix = Blend.of({"links": 0.3, "generic": 0.7})
    unlabelled = explore_columns(corpus, engine, corpus["p105"], None, 3, blend=mix)
    assert [column.heading for column in unlabelled] == ["Wikipedia links", "generic", "your mix"]
    assert left_out_line(engine, corpus["p105"]) == \
        "*Person 105* has no country or occupation label, so the country and occupation spaces are left out\\."
    labelled = explore_columns(corpus, engine, corpus["p3"], None, 3)  # the seed's default mix third
    assert [column.label for column in labelled] == ["links", "generic", "your mix", "country", "occupation"]
    assert left_out_line(engine, corpus["p3"]) == ""
    # free text keeps every space and has no links; no mix here: the fixture's spaces have no encoder for a text
    free_text = explore_columns(corpus, engine, None, "a painter", 3)
    assert [column.label for column in free_text] == ["generic", "country", "occupation"]
    assert left_out_line(engine, None) == "Links need an article seed, so the Wikipedia links column is left out\\."


def test_every_column_says_what_it_is_and_cards_say_where_else_they_appear():
    from tests.app_pages.conftest import fixture_engine

    corpus = fixture_corpus()
    engine = fixture_engine(corpus)
    columns = explore_columns(corpus, engine, corpus["p3"], None, 5, blend=Blend.of({"links": 1, "country": 3}))
    described = {column.label: column.description for column in columns}
    assert described["links"].startswith("Titles mentioned in the lead")
    assert described["generic"].startswith("Similar overall")
    assert described["country"] == ("Articles related to the seed (its nearest and its links), ranked up when "
                                    "they share its country label; ordered 40% by the country space, 60% by overall "
                                    "similarity.")  # relevant first (explore/relevant_first.py)
    assert described["your mix"] == ("Your mix: 25% linked from this article + 75% country similarity. Cards come from "
                                     "the articles related to the seed, ranked up for each label they share with "
                                     "it. Change it above.")
    plain = Neighbourhood(corpus, engine.spaces, relevant_first=None)  # a space served as it is says what it is
    assert column_description(plain, Query.parse("aspect:country")).startswith(
        "Similar in country: trained to put articles with the same country")
    where = {}
    for column in columns:
        for card in column.cards:
            where.setdefault(card.id, set()).add(column.label)
    for column in columns:
        for card in column.cards:
            assert set(card.also_in) == where[card.id] - {column.label}
    assert any(card.also_in for column in columns for card in column.cards)


def test_a_graded_union_column_says_that_sharing_both_ranks_first(tmp_path):
    import json

    from app_views.columns import column_description
    from explore.neighbours import Neighbourhood
    from explore.query import Query
    from tests.app_pages.conftest import fixture_engine

    corpus = fixture_corpus()
    base = fixture_engine(corpus)
    union = base.spaces["country"]
    union.name, union.kind, union.aspects = "union", "union", ("country", "occupation")
    engine = Neighbourhood(corpus, [base.spaces["generic"], union], relevant_first=None)
    union.directory_ = tmp_path
    assert column_description(engine, Query.parse("union")).startswith("Similar in any of country or occupation: ")
    served = Neighbourhood(corpus, [base.spaces["generic"], union])  # relevant first: sharing both ranks first
    assert "ranked up for each of its country and occupation labels they share" in column_description(
        served, Query.parse("union"))
    (tmp_path / "training.json").write_text(json.dumps({"config": {"combine": "graded"}}))
    assert column_description(engine, Query.parse("union")) == (
        "Similar in any of country or occupation, sharing more of them ranked first: trained to put articles sharing "
        "country and occupation closest, then those sharing one.")


def test_explore_names_the_seeds_aspects_without_a_space_and_how_to_train_one():
    from app_views.columns import missing_spaces_hint
    from explore.corpus.model import Article, Corpus, Provenance
    from tests.app_pages.conftest import fixture_engine

    base = fixture_corpus()
    articles = [Article(a.id, a.title, a.text, aspects=dict(a.aspects) | ({"industry": ("banking",)} if i < 2 else {}))
                for i, a in enumerate(base.articles)]
    corpus = Corpus("mine", articles, Provenance(source="JSONL import of mine.jsonl", date="2026-01-01"))
    engine = fixture_engine(corpus)  # country and occupation spaces, none for industry
    hint = missing_spaces_hint(corpus, engine, corpus.articles[0], where="on the Evaluation page", maintainer=True)
    assert hint.startswith("No space yet for aspect industry\\. Train one on the Evaluation page, or with `")
    assert "--aspects industry" in hint
    # a reader is told which aspect has no space, never how to train one: training writes to the data home
    assert missing_spaces_hint(corpus, engine, corpus.articles[0]) == "No space yet for aspect industry\\."
    assert missing_spaces_hint(corpus, engine, corpus.articles[5]) == ""  # that seed has no industry label


def test_the_links_column_and_the_read_link_are_named_after_the_corpus_source():
    from app_views.explore_panel.grid import read_label
    from app_views.columns import column_heading
    from explore.corpus.model import Article, Corpus, Provenance
    from explore.query import LINKS

    wiki = fixture_corpus()
    assert wiki.from_wikipedia and column_heading(LINKS, wiki) == "Wikipedia links"  # its articles' addresses
    own = Corpus("mine", [Article("a", "A", "text", url="https://intranet.example.org/a")],
                 Provenance(source="JSONL import of mine.jsonl", date="2026-01-01"))
    assert not own.from_wikipedia and column_heading(LINKS, own) == "Links"
    assert read_label("https://intranet.example.org/a") == "Read on intranet.example.org"
    assert read_label("https://en.wikipedia.org/wiki/A") == "Read on Wikipedia"
    vital_like = Corpus("v", [Article("a", "A", "text")], Provenance(source="Wikipedia leads via a package", date="x"))
    assert vital_like.from_wikipedia


def test_a_column_that_would_only_repeat_generic_is_left_out_in_words():
    from app_views.columns import left_out_line
    from explore.query import Kind
    from explore.relevant_first import RelevantFirst, Serving
    from tests.app_pages.conftest import fixture_engine
    from tests.fixture_corpora import fixture_corpus

    corpus = fixture_corpus()
    engine = fixture_engine(corpus)
    # the seed's one nearest article in generic (random vectors here) and its 3 links are all a column may show:
    # too few of them share its country or occupation
    engine.relevant_first = RelevantFirst({Kind.ASPECT: Serving(1, 0.5), Kind.BLEND: Serving(1)})
    seed = next(a for a in corpus.articles if a.labels("country") and engine.spaces_not_worth_drawing(a))
    not_drawn = engine.spaces_not_worth_drawing(seed)
    line = left_out_line(engine, seed)
    assert line.startswith("Few articles close to *") and "left out" in line and "repeat generic" in line
    headings = [column.heading for column in explore_columns(corpus, engine, seed, None, 5)]
    assert not any(f"{name} space" in headings for name in not_drawn)


def test_a_map_hover_shows_an_inferred_label_said_so():
    from app_views.markdown import map_hover
    from explore.corpus.model import Article

    hover = map_hover(Article("curie", "Marie Curie", "x", aspects={"country": ("Poland",)},
                              inferred={"topic": ("People",)}))
    assert hover == "<b>Marie Curie</b><br>country: Poland<br>topic: People (inferred)"


def test_the_read_more_column_comes_after_the_links_when_asked_with_ranks_not_similarities():
    from app_views.columns import READ_MORE, READ_MORE_DESCRIPTION, left_out_line
    from app_views.explore_panel.grid import grid_data
    from tests.app_pages.conftest import fixture_engine

    corpus = fixture_corpus()
    engine = fixture_engine(corpus)
    plain = explore_columns(corpus, engine, corpus["p3"], None, 3)
    asked = explore_columns(corpus, engine, corpus["p3"], None, 3, read_more=True)
    assert [column.label for column in asked] == ["links", "Read more", *[column.label for column in plain][1:]]
    read_more = asked[1]
    assert read_more.heading == READ_MORE and read_more.description == READ_MORE_DESCRIPTION
    assert read_more.cards and all(card.score is None and card.bm25_rank >= 1 for card in read_more.cards)
    shown = grid_data(asked, 4, lambda article_id: f"?seed={article_id}", "Person 3", 3, read_more=True)
    assert shown["read_more"] is True
    cards = shown["columns"][1]["cards"]
    assert all(card["score"] is None and card["rank_text"].startswith("text match #") for card in cards)
    assert all(card["rank_text"] == "" for card in shown["columns"][0]["cards"])
    # free text has no Read more: the line says so beside the links
    free_text = explore_columns(corpus, engine, None, "a painter", 3, read_more=True)
    assert "morelike" not in [str(column.query) for column in free_text]
    assert left_out_line(engine, None, read_more=True) == (
        "Links and Read more need an article seed, so the Wikipedia links and Wikipedia's Read more columns are left "
        "out\\.")
    assert left_out_line(engine, None) == "Links need an article seed, so the Wikipedia links column is left out\\."


def test_read_more_is_not_called_wikipedias_for_a_corpus_of_other_texts():
    from app_views.columns import column_heading
    from explore.corpus.model import Article, Corpus, Provenance
    from explore.query import MORELIKE

    own = Corpus("notes", [Article("a", "A", "text", url="https://example.org/a")], Provenance("my notes", "x"))
    assert column_heading(MORELIKE, own) == "Read more (more like this)"
