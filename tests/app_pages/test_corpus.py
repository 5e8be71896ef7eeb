"""Corpus page: counts, the title search and its article reader before the label distributions, and links
to Explore in this tab and in a new one."""
import re
from urllib.parse import parse_qs, urlsplit

from tests.app_views.live_markup import html_text


def _html(at, kind: str) -> str:
    """The one st.html fragment of the page whose outer class is `kind` (an-counts, an-table-box, an-chart-grid)."""
    [fragment] = [e.proto.body for e in at.get("html") if f'<div class="{kind}"' in e.proto.body]
    return fragment


def test_counts_and_one_chart_per_aspect(app):
    at = app("app_pages/corpus.py")
    counts = dict(zip(*[iter(html_text(_html(at, "an-counts")).split(" "))] * 2))
    assert counts["Articles"] == "120" and counts["Aspects"] == "2" and counts["Labels"].isdigit(), counts
    assert '<abbr title="' in _html(at, "an-counts")  # the links' kind, on a pointer over its label
    assert html_text(_html(at, "an-table-box")).startswith("aspect articles labelled coverage distinct labels country ")
    charts = _html(at, "an-chart-grid")
    assert charts.count("<figure") == 2 and charts.count("<style>") == 1  # one element: every chart, one style
    text = html_text(charts)
    assert text.startswith("country: top 5 of 5 labels") and " occupation: top " in text
    assert re.search(r" \d+ articles", text)  # each label's count, written
    assert any("CC BY-SA" in c.value for c in at.sidebar.caption)


def test_search_reads_an_article(app):
    at = app("app_pages/corpus.py")
    at.text_input(key="browse_query").input("Person 11").run()
    assert at.header[0].value.startswith("Person 11")
    body = " ".join(m.value for m in at.markdown)
    assert "country: Poland" in body and "Person_11" in body


def test_search_suggests_titles_for_a_typo(app):
    at = app("app_pages/corpus.py")
    at.text_input(key="browse_query").input("Persn 3").run()
    assert "No title contains" in at.warning[0].value


def test_corpus_without_aspects(app):
    at = app("app_pages/corpus.py", corpus="plain")
    assert "no aspect labels" in at.info[0].value


def test_explore_from_an_article_keeps_k_and_blend(app):
    at = app(seed="Person 3", k="8", blend="country:0.5")
    at.switch_page("app_pages/corpus.py").run()
    at.text_input(key="browse_query").input("Person 11").run()
    link = at.get("page_link")[0].proto
    assert link.query_string == "seed=Person+11&k=8&blend=country%3A0.5&corpus=fixture"


def test_search_comes_before_the_charts_and_says_when_it_caps(app):
    at = app("app_pages/corpus.py")
    assert [s.value for s in at.subheader][:2] == ["Find an article", "Aspect labels"]
    at.text_input(key="browse_query").input("Person").run()
    assert len(at.radio(key="browse_choice").options) == 20
    assert at.caption[1].value.startswith("Showing 20 of 120 matches for 'Person'")
    at.text_input(key="browse_query").input("Person 119").run()  # one match: nothing capped
    assert at.caption[1].value == "1 match for 'Person 119'."


def test_explore_in_a_new_tab_is_a_link_to_the_same_view(app):
    at = app(seed="Person 3", k="8")
    at.switch_page("app_pages/corpus.py").run()
    at.text_input(key="browse_query").input("Person 11").run()
    button = at.get("link_button")[0].proto
    assert button.label == "Explore from Person 11 in a new tab"
    address = urlsplit(button.url)
    assert address.path == "./" and parse_qs(address.query) == {"seed": ["Person 11"], "k": ["8"],
                                                                 "corpus": ["fixture"]}


def test_the_article_reader_says_what_an_inferred_label_means():
    from streamlit.testing.v1 import AppTest

    def page():
        from app_views.article_reader import show_article
        from explore.corpus.model import Article

        show_article(Article("curie", "Marie Curie", "Lead.", aspects={"country": ("Poland",)},
                             inferred={"topic": ("People",)}))
        show_article(Article("pierre", "Pierre Curie", "Lead.", aspects={"topic": ("People",)}))

    at = AppTest.from_function(page).run()
    assert "topic: People · inferred" in " ".join(m.value for m in at.markdown)
    assert [c.value for c in at.caption if "inferred" in c.value] == [
        "Labels marked inferred are not in the source data: they were guessed from nearby and linked articles, "
        "about 97% precise."]  # once: only Marie Curie's card has an inferred label


def test_a_label_links_to_the_maps_coloured_by_its_aspect_filtered_to_it_keeping_the_view(app):
    at = app(seed="Person 3", k="8")
    at.switch_page("app_pages/corpus.py").run()
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', _html(at, "an-chart-grid"))
    href, label = links[0]
    address = urlsplit(href.replace("&amp;", "&"))
    assert address.path == "maps" and parse_qs(address.query) == {"colour": ["country"], "only": [label],
                                                                   "seed": ["Person 3"], "k": ["8"],
                                                                   "corpus": ["fixture"]}


def test_the_counts_follow_an_aspect_attached_meanwhile(app, tmp_path):
    """The counts and charts are worked out once per stored corpus (app_views/corpus_summary.py): attaching an aspect
    to the stored corpus shows it on the next run, without a restart."""
    from explore.corpus.aspect_import import attach_aspect
    from explore.corpus.registry import open_corpus, store_corpus

    at = app("app_pages/corpus.py")
    assert "Aspects 2 " in html_text(_html(at, "an-counts"))
    labels = tmp_path / "era.csv"
    labels.write_text("id,label\n" + "".join(f"p{i},{('early', 'late')[i % 2]}\n" for i in range(30)))
    store_corpus(attach_aspect(open_corpus("fixture"), "era", labels).corpus)
    at.run()
    assert "Aspects 3 " in html_text(_html(at, "an-counts"))
    assert " era: top 2 of 2 labels (25% of articles labelled) " in html_text(_html(at, "an-chart-grid"))


def test_a_corpus_with_labels_from_public_tables_credits_them(app):
    """vital's labels from Pantheon 1.0 and the vital lists: the page credits the tables, as their provenance asks."""
    import dataclasses

    from explore.corpus.model import LABEL_CREDITS_DETAIL
    from explore.corpus.registry import store_corpus
    from tests.fixture_corpora import fixture_corpus

    corpus = fixture_corpus("credited")
    details = {**corpus.provenance.details, LABEL_CREDITS_DETAIL: "Pantheon 1.0: Yu et al. (2016), doi:10.7910/DVN/28201 *x*"}
    corpus.provenance = dataclasses.replace(corpus.provenance, details=details)
    store_corpus(corpus)
    at = app("app_pages/corpus.py", corpus="credited")
    caption = " ".join(c.value for c in at.caption)
    assert at.title[0].value == "Corpus: credited", [t.value for t in at.title]
    from app_views.markdown import escape_markdown

    credit = "Pantheon 1.0: Yu et al. (2016), doi:10.7910/DVN/28201 *x*"
    assert f"Some labels are derived from public tables: {escape_markdown(credit)}." in caption
    assert "\\*x\\*" in caption  # escaped: a table's text is no markup


def test_the_vital_build_carries_the_tables_credits():
    from explore.corpus.model import LABEL_CREDITS_DETAIL
    from explore.corpus.shipped import SHIPPED_CORPORA_DIR
    from explore.corpus.store import load_corpus

    credits = load_corpus(SHIPPED_CORPORA_DIR / "vital").provenance.details[LABEL_CREDITS_DETAIL]
    assert "Pantheon 1.0" in credits and "doi:10.7910/DVN/28201" in credits and "CC BY-SA 4.0" in credits
