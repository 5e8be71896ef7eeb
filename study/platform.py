"""The crowdsourcing platform a study runs on (Prolific, MTurk or none): which URL parameters identify a
participant, and where a participant goes when they finish or are screened out.

Declared in the study file as `platform:`; the model validates itself (http/https URLs, plain codes), so the
study page and the flow use typed values and never parse the block again.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from explore.errors import AspectNavError

PLATFORM_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,128}")
CODE_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
CODE_RULE = "a code of 1 to 64 letters, digits, '-' or '_' (as the platform shows it)"


class PlatformKind(str, Enum):
    PROLIFIC = "prolific"
    MTURK = "mturk"
    NONE = "none"

    def __str__(self) -> str:
        return self.value

    @property
    def id_parameters(self) -> tuple[str, ...]:
        """The URL parameters the platform opens the study with; the first one names the participant."""
        return {PlatformKind.PROLIFIC: ("PROLIFIC_PID", "STUDY_ID", "SESSION_ID"),
                PlatformKind.MTURK: ("workerId", "assignmentId", "hitId"),
                PlatformKind.NONE: ()}[self]

    @property
    def code_parameter(self) -> str:
        """The query parameter that carries the code on the way back (Prolific's completion links use `cc`)."""
        return "cc" if self is PlatformKind.PROLIFIC else "code"

    @property
    def returned_parameters(self) -> tuple[str, ...]:
        """Ids the platform needs back with the code (MTurk's externalSubmit matches on assignmentId)."""
        return ("assignmentId",) if self is PlatformKind.MTURK else ()

    @property
    def display_name(self) -> str:
        return {PlatformKind.PROLIFIC: "Prolific", PlatformKind.MTURK: "Mechanical Turk",
                PlatformKind.NONE: "the study"}[self]

    @property
    def id_name(self) -> str:
        """The participant id as the platform's participants know it."""
        return {PlatformKind.PROLIFIC: "Prolific ID", PlatformKind.MTURK: "Mechanical Turk worker ID",
                PlatformKind.NONE: "participant id"}[self]


class MissingId(str, Enum):
    """What a platform study does with someone who arrives without the platform's participant id (a copied or
    shortened link, an MTurk preview): their answers could never be matched to a submission."""

    STOP = "stop"  # a page that sends them back to the platform; nothing is stored (the default)
    ALLOW = "allow"  # they take part unlinked: a pilot, or the researcher trying the study

    def __str__(self) -> str:
        return self.value


class PlatformError(AspectNavError):
    """A participant arrived with malformed platform ids; the message says what to do."""


URL_RULE = ("an http:// or https:// address with a host, and without spaces, control characters, quotes, "
            "backticks, backslashes or angle brackets (percent-encode them)")
_URL_FORBIDDEN = frozenset("\"'`<>\\")


def _web_url(value: str | None) -> str | None:
    """A return address as the finish page may use it: strictly http(s) with a host; nothing that could end an
    attribute or a script (a study file is trusted with participants' browsers only this far)."""
    if value is None:
        return None
    text = str(value).strip()
    if any(ch.isspace() or not ch.isprintable() or ch in _URL_FORBIDDEN for ch in text):
        raise ValueError(URL_RULE)
    try:
        parts = urlsplit(text)
        host = parts.hostname
    except ValueError:
        raise ValueError(URL_RULE) from None
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise ValueError(URL_RULE)
    return text


class Platform(BaseModel):
    """`platform:` in a study file. With prolific or mturk the completion URL and code are required; the
    screen-out URL and code (both or neither) send a participant who fails a declared check back early."""

    model_config = ConfigDict(extra="forbid", frozen=True, coerce_numbers_to_str=True)

    kind: PlatformKind = Field(PlatformKind.NONE, description="prolific, mturk or none")
    completion_url: str | None = Field(
        None, description="an http(s) address the participant is sent to after the last task, e.g. "
                          "https://app.prolific.com/submissions/complete")
    completion_code: str | None = Field(None, pattern=CODE_PATTERN, description=CODE_RULE)
    screen_out_url: str | None = Field(
        None, description="an http(s) address a participant who fails a declared check is sent to")
    screen_out_code: str | None = Field(None, pattern=CODE_PATTERN, description=CODE_RULE)
    missing_id: MissingId = Field(MissingId.STOP, description="stop (the default) or allow")

    @field_validator("completion_url", "screen_out_url", mode="before")
    @classmethod
    def _http_only(cls, value):
        return _web_url(value)

    @model_validator(mode="after")
    def _complete(self) -> "Platform":
        if self.kind is not PlatformKind.NONE and not (self.completion_url and self.completion_code):
            raise ValueError(f"a {self.kind} study needs completion_url and completion_code (the platform "
                             "gives both when you create the study)")
        for what in ("completion", "screen_out"):
            url, code = getattr(self, f"{what}_url"), getattr(self, f"{what}_code")
            if bool(url) != bool(code):
                raise ValueError(f"{what}_url and {what}_code go together: give both or neither")
        if self.screen_out_code and self.screen_out_code == self.completion_code:
            raise ValueError("screen_out_code must differ from completion_code, or the platform cannot tell "
                             "screened-out participants from those who completed")
        return self

    @property
    def screens_out(self) -> bool:
        return self.screen_out_url is not None

    @property
    def requires_id(self) -> bool:
        """Whether nobody may take part without the platform's participant id."""
        return self.kind is not PlatformKind.NONE and self.missing_id is MissingId.STOP

    def missing_id_message(self) -> str:
        """What someone who arrived without the participant id reads instead of the consent."""
        where, what = self.kind.display_name, self.kind.id_name
        return (f"This link does not carry your {what}, so your answers could not be matched to your submission and "
                f"you could not be paid for them. Please go back to {where} and open the study from its page there "
                "(a copied or shortened link loses the ID). Nothing has been recorded.")

    def participant_ids(self, query: Mapping[str, str]) -> dict[str, str] | None:
        """The platform's ids from the study URL's query (None when the participant id is absent, e.g. a
        researcher trying the study); PlatformError when one is malformed."""
        names = self.kind.id_parameters
        if not names or not str(query.get(names[0]) or "").strip():
            return None
        ids = {}
        for name in names:
            value = str(query.get(name) or "").strip()
            if not value:
                continue
            if not PLATFORM_ID_PATTERN.fullmatch(value):
                raise PlatformError(f"The link you followed has a malformed {name}. Please go back to "
                                    f"{self.kind.display_name} and open the study from there again.")
            ids[name] = value
        return ids

    def return_url(self, screened_out: bool, ids: Mapping[str, str] | None = None) -> str | None:
        """Where a finished (or screened-out) participant goes: the declared URL with the code (and the ids
        the platform needs back) added to its query; None when nothing is declared."""
        url, code = ((self.screen_out_url, self.screen_out_code) if screened_out
                     else (self.completion_url, self.completion_code))
        if not url:
            return None
        parts = urlsplit(url)
        extra = [(name, (ids or {})[name]) for name in self.kind.returned_parameters if name in (ids or {})]
        query = urlencode([*parse_qsl(parts.query), *extra, (self.kind.code_parameter, code)])
        return urlunsplit(parts._replace(query=query))

    def code(self, screened_out: bool) -> str | None:
        return self.screen_out_code if screened_out else self.completion_code
