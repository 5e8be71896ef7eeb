"""What a well-formed SPARQL or MediaWiki answer holds, as pydantic models: a 200 of valid JSON
can still be wrongly shaped inside, and must be caught before it is cached or parsed."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from explore.schema import Refusal, refusals

SHOWN_PROBLEMS = 2  # a broken list fails on every row; the first ones say enough


class _Shape(BaseModel):
    # the services add fields freely; only what the clients read is checked, and checked strictly
    model_config = ConfigDict(strict=True, extra="allow")


class SparqlTerm(_Shape):
    type: Literal["uri", "literal", "bnode", "typed-literal"]
    value: str


class SelectResults(_Shape):
    bindings: list[dict[str, SparqlTerm]]


class SelectAnswer(_Shape):
    """A SPARQL 1.1 JSON results document of a SELECT query."""

    results: SelectResults = Field(description='{"bindings": [rows]}, each row mapping a variable to a term '
                                               '{"type": "uri", "literal" or "bnode", "value": text}')


class _Titled(_Shape):
    title: str


class _LinkedTitle(_Titled):
    ns: int = 0


class _Alias(_Shape):
    source: str = Field(alias="from")
    to: str


class _PageProps(_Shape):
    wikibase_item: str = ""


class _Page(_Titled):
    extract: str | None = None
    # an article address becomes a link in the app: only http(s) is one (a javascript: URL must not be cached)
    fullurl: str = Field("", pattern=r"^(https?://[^\s]+)?$", description="an http(s) address")
    pageprops: _PageProps | None = None
    links: list[_LinkedTitle] = []
    redirects: list[_LinkedTitle] = []


class _Query(_Shape):
    normalized: list[_Alias] = []
    converted: list[_Alias] = []
    redirects: list[_Alias] = []
    interwiki: list[_Titled] = []
    pages: list[_Page] = []
    random: list[_Titled] | None = None  # present in every list=random answer; checked by the client


class QueryAnswer(_Shape):
    """An `action=query` answer in formatversion 2."""

    query: _Query = Field(description='an object whose "pages", "random" and "interwiki" entries have a text '
                                      '"title" and whose "normalized", "converted" and "redirects" entries have '
                                      'text "from" and "to"')
    continuation: dict[str, str] = Field(default_factory=dict, alias="continue",
                                         description="an object of text continuation parameters")


def shape_problem(model: type[BaseModel], document: object) -> str | None:
    """None if `document` fits `model`, else what is wrong, worded for the user."""
    try:
        model.model_validate(document)
    except ValidationError as error:
        sentences = list(dict.fromkeys(map(_sentence, refusals(error, model))))
        more = len(sentences) - SHOWN_PROBLEMS
        return "; ".join(sentences[:SHOWN_PROBLEMS]) + (f" (and {more} more)" if more > 0 else "")
    return None


def _sentence(refusal: Refusal) -> str:
    if not refusal.field:
        return f"expected an object with {refusal.expected}, got {glimpse(refusal.got)}"
    if refusal.missing and "." not in refusal.field:
        return f"no {refusal.field!r}, which must be {refusal.expected}"
    return f"{refusal.field}: expected {refusal.expected}, got {glimpse(refusal.got)}"


def glimpse(value: object, width: int = 100) -> str:
    """Enough of a value to recognise it; an answer can be megabytes."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 1] + "…"
