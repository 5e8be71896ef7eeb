from app_views.cards import Card
from app_views.markdown import aspect_chips, escape_markdown, markdown_link, shared_chips
from explore.corpus.model import Article


def test_markdown_and_html_in_corpus_text_are_shown_as_text():
    assert escape_markdown("*bold* [x](y) <b> $x$ :red[z]") == (
        "\\*bold\\* \\[x\\]\\(y\\) &lt;b&gt; \\$x\\$ \\:red\\[z\\]")
    assert escape_markdown("Marie Curie") == "Marie Curie"


def test_a_link_cannot_be_closed_early_by_its_address():
    assert markdown_link("Mercury (planet)", "https://en.wikipedia.org/wiki/Mercury_(planet)") == (
        "[Mercury \\(planet\\)](https://en.wikipedia.org/wiki/Mercury_%28planet%29)")


def test_chips_escape_their_labels():
    article = Article("a", "A", "text", aspects={"country": ("France",), "occupation": ("a]b",)})
    assert aspect_chips(article) == ":blue-badge[country: France] :blue-badge[occupation: a\\]b]"
    assert aspect_chips(Article("b", "B", "text")) == "_no aspect labels_"
    card = Card("b", "B", "snippet", shared={"country": ["France"]})
    assert shared_chips(card) == ":green-badge[country: France]"
