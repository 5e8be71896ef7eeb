"""Write the dumps most users have, in their real formats: a MediaWiki XML export (`pages-articles.xml.bz2`: the
export-0.10 schema, siteinfo with its namespaces, one <page> per page with <title>, <ns>, <id>, <redirect/> on a
redirect, one <revision> holding the wikitext in <text>), and WikiExtractor's two outputs of one (`<doc id url title>`
blocks, and --json lines of id, revid, url, title, text), from a corpus's articles plus the odd pages real dumps carry
(talk and template pages, redirects, empty pages). Tests import the results."""
from __future__ import annotations

import bz2
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr

from explore.corpus.model import Article

EXPORT_HEAD = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" \
xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.10/ http://www.mediawiki.org/xml/export-0.10.xsd" \
version="0.10" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>enwiki</dbname>
    <base>https://en.wikipedia.org/wiki/Main_Page</base>
    <generator>MediaWiki 1.42.0-wmf.2</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="-2" case="first-letter">Media</namespace>
      <namespace key="-1" case="first-letter">Special</namespace>
      <namespace key="0" case="first-letter" />
      <namespace key="1" case="first-letter">Talk</namespace>
      <namespace key="2" case="first-letter">User</namespace>
      <namespace key="4" case="first-letter">Wikipedia</namespace>
      <namespace key="6" case="first-letter">File</namespace>
      <namespace key="10" case="first-letter">Template</namespace>
      <namespace key="14" case="first-letter">Category</namespace>
      <namespace key="100" case="first-letter">Portal</namespace>
      <namespace key="118" case="first-letter">Draft</namespace>
      <namespace key="828" case="first-letter">Module</namespace>
    </namespaces>
  </siteinfo>
"""
EXPORT_TAIL = "</mediawiki>\n"

# A page as enwiki writes it: hatnote, short description, infobox with links, a lead with bold, references (named,
# reused, with a citation template), a language template, a conversion, a file, then sections, categories and an
# interlanguage link. LEAD_OF_ANARCHISM is what a reader sees of its lead; LINKS_OF_ANARCHISM its article links.
ANARCHISM_WIKITEXT = """{{Short description|Political philosophy and movement}}
{{Other uses}}
{{Good article}}
{{Use British English|date=August 2021}}
{{Anarchism sidebar}}
{{Infobox philosophy
| name = Anarchism
| region = [[Worldwide]]
| influenced = [[Political philosophy|political thought]]
}}
[[File:Anarchy-symbol.svg|thumb|upright|The [[circle-A]] symbol, used by anarchists]]
'''Anarchism''' is a [[political philosophy]] and [[Political movement|movement]] that is skeptical of all \
justifications for [[authority]] and seeks to abolish the [[institution]]s it claims maintain unnecessary \
[[coercion]] and [[Social hierarchy|hierarchy]], typically including the [[State (polity)|state]] and \
[[capitalism]].<ref name="Suissa2019">{{cite book |last=Suissa |first=Judith |title=Anarchism and Education \
|year=2019 |page=7}}</ref><ref>{{Harvnb|McLaughlin|2007|p=59}}</ref> Its name comes from the Greek \
{{lang|grc|ἄναρχος}} (''anarchos''), "without ruler".<ref name="Suissa2019" /> It spread over \
{{convert|9000|km}} of the [[Iberian Peninsula|Iberian]] coast.<!-- hidden editor note -->

Humans have lived in societies without formal hierarchies long before the establishment of states, \
[[Realm|realms]], or [[empire]]s.<ref>{{sfn|Graham|2005|pp=xi–xiv}}</ref>

== Etymology, terminology, and definition ==
{{Main|Definition of anarchism and libertarianism}}
The etymological origin of ''anarchism'' is from the [[Ancient Greek]] ''anarkhia''.

== History ==
{{See also|History of anarchism}}
Early [[Taoism|Taoist]] thinkers are sometimes cited.<ref>{{cite web|url=https://example.org/?a=1&b=2|title=T}}</ref>

{| class="wikitable"
|-
! Year !! Event
|-
| 1840 || [[Pierre-Joseph Proudhon]] publishes ''What is Property?''
|}

== See also ==
* [[Anarchism by country]]
* [[Glossary of anarchism#A|Glossary]]

== References ==
{{Reflist}}

[[Category:Anarchism| ]]
[[Category:Political ideologies]]
[[fr:Anarchisme]]
[[de:Anarchismus]]
"""
LEAD_OF_ANARCHISM = (
    "Anarchism is a political philosophy and movement that is skeptical of all justifications for authority and "
    "seeks to abolish the institutions it claims maintain unnecessary coercion and hierarchy, typically including "
    "the state and capitalism. Its name comes from the Greek ἄναρχος (anarchos), \"without ruler\". It spread over "
    "9000 km of the Iberian coast. Humans have lived in societies without formal hierarchies long before the "
    "establishment of states, realms, or empires.")
LINKS_OF_ANARCHISM = (
    "Worldwide", "Political philosophy", "circle-A", "political philosophy", "Political movement", "authority",
    "institution", "coercion", "Social hierarchy", "State (polity)", "capitalism", "Iberian Peninsula", "Realm",
    "empire", "Ancient Greek", "Taoism", "Pierre-Joseph Proudhon", "Anarchism by country", "Glossary of anarchism")


@dataclass(frozen=True)
class OddPage:
    """A page the import skips: its title and the SkipReason name it is counted under."""

    title: str
    reason: str


@dataclass(frozen=True)
class ExportFixture:
    path: Path
    articles: list[Article]  # the good articles, in dump order
    page_ids: dict[str, int]  # article id -> the page id written
    odd: list[OddPage]  # the pages skipped, in dump order


def page_xml(title: str, page_id: int, wikitext: str | None, ns: int = 0, redirect: str = "") -> str:
    """One <page> as Special:Export and the dumps write it (one revision: pages-articles)."""
    size = len((wikitext or "").encode())
    text = (f'      <text bytes="{size}" sha1="phoiac9h4m842xq45sp7s6u21eteeq1" xml:space="preserve">'
            f"{escape(wikitext)}</text>\n" if wikitext else f'      <text bytes="0" xml:space="preserve" />\n')
    return (f"  <page>\n    <title>{escape(title)}</title>\n    <ns>{ns}</ns>\n    <id>{page_id}</id>\n"
            + (f"    <redirect title={quoteattr(redirect)} />\n" if redirect else "")
            + f"    <revision>\n      <id>{1200000000 + page_id}</id>\n      <parentid>{1100000000 + page_id}</parentid>\n"
            "      <timestamp>2024-05-01T12:00:00Z</timestamp>\n"
            "      <contributor>\n        <username>Example editor</username>\n        <id>4242</id>\n"
            "      </contributor>\n      <comment>copyedit</comment>\n      <origin>1200000000</origin>\n"
            "      <model>wikitext</model>\n      <format>text/x-wiki</format>\n"
            + text + "      <sha1>phoiac9h4m842xq45sp7s6u21eteeq1</sha1>\n    </revision>\n  </page>\n")


def article_wikitext(article: Article, titles: dict[str, str]) -> str:
    """`article` as wikitext whose lead reads as `article.text`: templates, an infobox, references and a file
    around it; its links as a linked mention in the lead (where its text names a linked title) and a See also list."""
    linked = [titles[link] for link in article.links if link in titles]
    lead = article.text.replace("[", "(").replace("]", ")").replace("{", "(").replace("}", ")").replace("''", '"')
    lead = lead.replace("<", "‹").replace("~~~", "~")
    for title in linked:  # a mention in the lead becomes a piped link, read back as the same words
        if f" {title} " in lead:
            lead = lead.replace(f" {title} ", f" [[{title}|{title}]] ", 1)
            break
    see_also = "".join(f"* [[{title}]]\n" for title in linked)
    return ("{{Short description|An article}}\n{{Infobox thing\n| name = " + article.title + "\n| image = Example.jpg\n}}\n"
            "[[File:Example.jpg|thumb|A caption with a [[Caption link]]]]\n"
            + lead + '<ref>{{cite web |url=https://example.org/ |title=A source}}</ref>\n\n'
            "== History ==\nThe rest of the article follows the lead.\n\n"
            + ("== See also ==\n" + see_also + "\n" if see_also else "")
            + "== References ==\n{{Reflist}}\n\n[[Category:Example articles]]\n[[fr:" + article.title + "]]\n")


def expected_lead(article: Article) -> str:
    """What the import reads back of `article_wikitext(article)`'s lead: one line, and no space before a "." or ";"
    (a lead's references and templates sit there, so the import closes the gap they leave)."""
    lead = article.text.replace("[", "(").replace("]", ")").replace("{", "(").replace("}", ")").replace("''", '"')
    return re.sub(r"\s+([,.;:!?)\]])", r"\1", " ".join(lead.replace("<", "‹").replace("~~~", "~").split()))


def write_export(path: Path, articles: Iterable[Article], odd: bool = True, extra_pages: str = "") -> ExportFixture:
    """`articles` as a MediaWiki XML export at `path` (bz2 when it ends .bz2), with a talk page, a template, a
    redirect and an empty page after every 50th article unless `odd` is False; `extra_pages` (XML) at the end."""
    articles = list(articles)
    titles = {a.id: a.title for a in articles}
    parts, page_ids, odd_pages = [EXPORT_HEAD], {}, []
    for index, article in enumerate(articles):
        page_ids[article.id] = page_id = 1000 + index
        parts.append(page_xml(article.title, page_id, article_wikitext(article, titles)))
        if odd and index % 50 == 7:
            parts.append(page_xml(f"Talk:{article.title}", 900000 + index, "== Merge? ==\nI disagree. ~~~~", ns=1))
            parts.append(page_xml(f"Template:{article.title}", 910000 + index, "{{Navbox|name=X}}", ns=10))
            parts.append(page_xml(f"{article.title} (disambiguation page)", 920000 + index,
                                  f"#REDIRECT [[{article.title}]]\n\n{{{{R from move}}}}", redirect=article.title))
            parts.append(page_xml(f"{article.title} (empty)", 930000 + index, None))
            odd_pages += [OddPage(f"Talk:{article.title}", "NOT_ARTICLE"),
                          OddPage(f"Template:{article.title}", "NOT_ARTICLE"),
                          OddPage(f"{article.title} (disambiguation page)", "REDIRECT"),
                          OddPage(f"{article.title} (empty)", "EMPTY")]
    parts += [extra_pages, EXPORT_TAIL]
    data = "".join(parts).encode()
    Path(path).write_bytes(bz2.compress(data) if str(path).endswith(".bz2") else data)
    return ExportFixture(Path(path), articles, page_ids, odd_pages)


def wikiextractor_body(article: Article, titles: dict[str, str], links: bool) -> str:
    """The text WikiExtractor writes for `article`: one line per paragraph, a section heading as a line ending in
    ".", entities escaped; with --links each link as an escaped <a href="Quoted%20title">."""
    lead = article.text
    if links:
        for title in (titles[link] for link in article.links if link in titles):
            if f" {title} " in lead:
                lead = lead.replace(f" {title} ", f' <a href="{quote(title)}">{title}</a> ', 1)
                break
    see_also = [f'<a href="{quote(titles[link])}">{titles[link]}</a>' if links else titles[link]
                for link in article.links if link in titles]
    lines = [lead, "History.", "The rest of the article follows the lead."]
    if see_also:
        lines += ["See also.", " ".join(see_also) + "."]
    return _escaped("\n".join(lines))


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write_wikiextractor_docs(path: Path, articles: Iterable[Article], links: bool = True,
                             empty_every: int = 50) -> list[str]:
    """WikiExtractor's default output (`wiki_00`): a <doc> block per page; every `empty_every`th page (from the 8th)
    has no text, as a page of templates only does. Returns the titles of the empty pages."""
    articles = list(articles)
    titles = {a.id: a.title for a in articles}
    out, empty = [], []
    for index, article in enumerate(articles):
        page_id = 1000 + index
        out.append(f'<doc id="{page_id}" url="https://en.wikipedia.org/wiki?curid={page_id}" title="{article.title}">\n'
                   f"{article.title}\n\n{wikiextractor_body(article, titles, links)}\n</doc>\n")
        if index % empty_every == 7:
            empty.append(f"{article.title} (list)")
            out.append(f'<doc id="{950000 + index}" url="https://en.wikipedia.org/wiki?curid={950000 + index}" '
                       f'title="{article.title} (list)">\n{article.title} (list)\n\n\n</doc>\n')
    data = "".join(out).encode()
    Path(path).write_bytes(bz2.compress(data) if str(path).endswith(".bz2") else data)
    return empty


def write_wikiextractor_json(path: Path, articles: Iterable[Article], empty_every: int = 50) -> list[str]:
    """WikiExtractor --json output: one object per line (id, revid, url, title, text: the body, no title line);
    every `empty_every`th page (from the 8th) has text "". Returns the titles of the empty pages."""
    articles = list(articles)
    titles = {a.id: a.title for a in articles}
    out, empty = [], []
    for index, article in enumerate(articles):
        page_id = 1000 + index
        out.append(json.dumps({"id": str(page_id), "revid": str(1200000000 + page_id),
                               "url": f"https://en.wikipedia.org/wiki?curid={page_id}", "title": article.title,
                               "text": wikiextractor_body(article, titles, links=True)}))
        if index % empty_every == 7:
            empty.append(f"{article.title} (list)")
            out.append(json.dumps({"id": str(950000 + index), "revid": "1", "url": "https://en.wikipedia.org/wiki?"
                                   f"curid={950000 + index}", "title": f"{article.title} (list)", "text": ""}))
    data = ("\n".join(out) + "\n").encode()
    Path(path).write_bytes(bz2.compress(data) if str(path).endswith(".bz2") else data)
    return empty
