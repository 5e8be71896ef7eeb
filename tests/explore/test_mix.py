"""A seed's default mix: its own aspect spaces equally weighted, plus its links at a given share."""
from explore.mix import default_mix
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
