"""The mix (explore/mix.py): a seed's default (its own aspect spaces equally weighted, plus its links at a given
share), what this corpus and seed can weigh of a reader's choice, and the changes pills and the links weight make."""
from explore.mix import (DEFAULT_LINKS_SHARE, compose, default_mix, effective_mix, links_share, seed_aspect_spaces,
                         with_links_share, with_spaces)
from explore.query import Blend
from tests.app_pages.conftest import fixture_engine
from tests.fixture_corpora import fixture_corpus

CORPUS = fixture_corpus()
ENGINE = fixture_engine(CORPUS)


def test_the_default_mix_is_the_seeds_aspects_and_generic_plus_its_links():
    # the rest after the links: generic at DEFAULT_GENERIC_SHARE (0.6), the seed's aspect spaces equally
    assert str(default_mix(ENGINE, CORPUS["p3"], 0.3)) == "links:0.3,country:0.14,occupation:0.14,generic:0.42"
    assert str(default_mix(ENGINE, CORPUS["p105"], 0.3)) == "links:0.3,generic:0.7"  # no labels: overall similarity
    assert str(default_mix(ENGINE, CORPUS["p3"], 0)) == "country:0.2,occupation:0.2,generic:0.6"
    assert str(default_mix(ENGINE, CORPUS["p3"], 0, generic_share=0)) == "country:0.5,occupation:0.5"
    assert default_mix(ENGINE, None) is None  # free text: the reader picks


def test_the_default_mix_is_the_seeds_aspects_plus_its_links_at_the_measured_share():
    assert seed_aspect_spaces(ENGINE, CORPUS["p3"]) == ["country", "occupation"]
    assert default_mix(ENGINE, CORPUS["p3"]) == default_mix(ENGINE, CORPUS["p3"], DEFAULT_LINKS_SHARE)
    assert dict(default_mix(ENGINE, CORPUS["p3"]).weights)["links"] == DEFAULT_LINKS_SHARE  # explore/mix.py: one place
    assert default_mix(ENGINE, None) is None  # free text: the reader picks


def test_the_effective_mix_drops_what_this_corpus_or_seed_cannot_weigh():
    chosen = Blend.of({"links": 0.5, "country": 0.5, "elsewhere": 1})
    assert str(effective_mix(ENGINE, CORPUS["p3"], chosen)) == "links:0.5,country:0.5"
    assert str(effective_mix(ENGINE, None, chosen)) == "country:0.5"  # links need an article seed
    assert effective_mix(ENGINE, None, Blend.of({"elsewhere": 1})) is None


def test_pills_keep_the_links_share_and_the_links_weight_keeps_the_spaces_proportions():
    mix = Blend.of({"links": 0.2, "country": 0.6, "occupation": 0.2})
    # generic picked beside a space takes the default's share of what the links leave (the mix had none)...
    assert str(with_spaces(ENGINE, mix, ["occupation", "generic"])) == "links:0.2,occupation:0.32,generic:0.48"
    # ...or keeps the share it had: dropping a space reshapes only the spaces
    default = Blend.of({"links": 0.05, "country": 0.19, "occupation": 0.19, "generic": 0.57})
    assert str(with_spaces(ENGINE, default, ["occupation", "generic"])) == "links:0.05,occupation:0.38,generic:0.57"
    assert str(with_spaces(ENGINE, mix, ["generic"])) == "links:0.2,generic:0.8"  # alone: all of the rest
    assert with_spaces(ENGINE, None, []) is None
    assert str(with_links_share(ENGINE, CORPUS["p3"], mix, 0.5)) == "links:0.5,country:0.37,occupation:0.12"
    assert str(with_links_share(ENGINE, CORPUS["p3"], Blend.of({"links": 1}), 0.4)) == \
        "links:0.4,country:0.12,occupation:0.12,generic:0.36"  # no space left: back to the seed's default
    assert links_share(compose(["country"], 0.25)) == 0.25 and links_share(None) == 0.0


def test_a_free_text_seed_mixes_generic_with_every_aspect_space_that_can_encode_text(monkeypatch):
    import explore.mix as mix_module
    from explore.mix import TEXT_GENERIC_SHARE, text_mix

    assert text_mix(ENGINE) is None  # the fixture's spaces have no encoder: nothing can encode the text
    monkeypatch.setattr(mix_module, "encodes_text", lambda engine, name: True)
    mix = text_mix(ENGINE)
    weights = dict(mix.weights)
    assert weights["generic"] == TEXT_GENERIC_SHARE and "links" not in weights
    aspects = [n for n in ENGINE.spaces if ENGINE.spaces[n].kind == "aspect"]
    assert set(weights) == {"generic", *aspects} and len({weights[n] for n in aspects}) == 1
    assert effective_mix(ENGINE, None, None) == mix
