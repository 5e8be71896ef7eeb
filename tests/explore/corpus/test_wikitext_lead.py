"""A page's wikitext read to the lead a reader sees and the articles it links to (issue #54, item 3)."""
from explore.corpus.wikitext_lead import is_redirect_text, lead_and_links
from tests.mediawiki_dump_fixture import ANARCHISM_WIKITEXT, LEAD_OF_ANARCHISM, LINKS_OF_ANARCHISM


def test_a_real_lead_loses_its_templates_references_files_and_markup():
    read = lead_and_links(ANARCHISM_WIKITEXT)
    assert read.lead == LEAD_OF_ANARCHISM
    for leftover in ("{{", "}}", "[[", "<ref", "''", "Infobox", "thumb", "hidden editor note", "Suissa"):
        assert leftover not in read.lead


def test_links_are_the_articles_the_page_links_to_not_files_categories_or_other_wikis():
    links = lead_and_links(ANARCHISM_WIKITEXT).links
    assert links == LINKS_OF_ANARCHISM
    assert "Glossary of anarchism" in links  # its #section dropped
    assert not any(link.startswith(("File:", "Category:", "fr:", "de:")) for link in links)


def test_a_page_that_opens_with_a_heading_has_no_lead():
    assert lead_and_links("== History ==\nIt began [[Somewhere|somewhere]].").lead == ""
    assert lead_and_links("{{Infobox|a=b}}\n\n== History ==\nText.").links == ()


def test_the_wikis_own_namespace_names_are_not_articles():
    wikitext = "'''Berlin''' ist eine [[Stadt]].[[Datei:Berlin.jpg|mini|Bild]] [[Kategorie:Stadt]]"
    read = lead_and_links(wikitext, frozenset({"datei", "kategorie"}))
    assert read.lead == "Berlin ist eine Stadt." and read.links == ("Stadt",)


def test_inline_templates_keep_their_words_others_go():
    read = lead_and_links("Paris ({{IPA-fr|paʁi}}) is {{convert|105|km2}} of {{lang|fr|la Ville}}{{nowrap|lumière}}"
                          "{{citation needed|date=May 2024}}.")
    assert read.lead == "Paris is 105 km2 of la Villelumière."


def test_redirect_text_is_told_whatever_its_case():
    assert is_redirect_text("#REDIRECT [[Target]]") and is_redirect_text("  #redirect [[Target]]")
    assert not is_redirect_text("'''Redirect''' is a word.")
