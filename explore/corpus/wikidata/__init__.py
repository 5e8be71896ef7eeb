"""Build corpora live from Wikidata (class items, aspect labels) and Wikipedia (leads, links, noise)."""
from explore.corpus.wikidata.builder import BuildSettings, BuildSummary, build_wikidata_corpus
from explore.corpus.wikidata.http_etiquette import Etiquette, FetchError
from explore.corpus.wikidata.recipes import Recipe, RecipeError, load_recipe

__all__ = ["BuildSettings", "BuildSummary", "Etiquette", "FetchError", "Recipe", "RecipeError",
           "build_wikidata_corpus", "load_recipe"]
