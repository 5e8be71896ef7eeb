from app_views.cards import card_for
from explore.corpus.snippet import SNIPPET_CHARS, snippet
from explore.corpus.model import Article


def test_snippet_keeps_short_text_and_cuts_long_text_at_a_word():
    assert snippet("A short lead.") == "A short lead."
    text = "word " * 100
    cut = snippet(text)
    assert len(cut) <= SNIPPET_CHARS + 1 and cut.endswith("…") and not cut[:-1].endswith(" ")
    assert snippet("x" * 400).startswith("x" * 100)
    assert snippet("  spaced\n\nout  ") == "spaced out"


def test_card_highlights_labels_shared_with_the_seed():
    seed = Article("a", "A", "text", aspects={"country": ("France", "Poland"), "occupation": ("chemist",)})
    other = Article("b", "B", "other text", aspects={"country": ("France",), "occupation": ("painter",)})
    card = card_for(other, seed, score=0.5)
    assert card.shared == {"country": ["France"]} and card.score == 0.5 and card.shared_count == 1


def test_a_card_marks_inferred_only_what_its_own_article_has_inferred():
    seed = Article("curie", "Marie Curie", "text", inferred={"topic": ("People",)})  # the seed's topic is inferred
    plain = Article("b", "B", "text", aspects={"topic": ("People",)})
    guessed = Article("c", "C", "text", inferred={"topic": ("People",)})
    assert card_for(plain, seed).shared == {"topic": ["People"]} and card_for(plain, seed).inferred == frozenset()
    assert card_for(guessed, seed).inferred == {"topic"}
    assert card_for(guessed, plain).inferred == {"topic"}
