"""Retry rules in isolation: Retry-After forms, backoff growth and its cap."""
from __future__ import annotations

import email.utils
import time

import pytest

from explore.corpus.wikidata.http_etiquette import (Etiquette, FetchError, RetryableFailure, call_politely,
                                                    parse_retry_after)


def test_retry_after_as_seconds_or_http_date():
    assert parse_retry_after("120") == 120.0
    in_a_minute = email.utils.formatdate(time.time() + 60, usegmt=True)
    assert 55 <= parse_retry_after(in_a_minute) <= 60
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None


def test_backoff_doubles_up_to_its_cap_and_retry_after_wins():
    waits = []
    failures = iter([RetryableFailure("500"), RetryableFailure("500"), RetryableFailure("429", 9.0),
                     RetryableFailure("500"), RetryableFailure("500")])

    def attempt():
        failure = next(failures, None)
        if failure:
            raise failure
        return "ok"

    etiquette = Etiquette(max_attempts=6, backoff_s=2, max_backoff_s=5, sleep=waits.append)
    assert call_politely(attempt, etiquette, "test") == "ok"
    assert waits == [2, 4, 9.0, 5, 5]


def test_giving_up_names_the_last_reason():
    def attempt():
        raise RetryableFailure("HTTP 503 from the API")

    with pytest.raises(FetchError, match="Gave up on the test after 2 attempts: HTTP 503"):
        call_politely(attempt, Etiquette(max_attempts=2, sleep=lambda s: None), "the test")
