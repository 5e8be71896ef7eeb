"""The maps' layers fetched early: only addresses the server serves and still keeps, in a script of the one helper."""
from __future__ import annotations

import threading

import pytest

from app_views.map_chart import layer_store, prefetch


@pytest.fixture(autouse=True)
def empty_store(monkeypatch):
    monkeypatch.setattr(layer_store, "_layers", type(layer_store._layers)())
    monkeypatch.setattr(layer_store, "_named", type(layer_store._named)())
    monkeypatch.setattr(layer_store, "_served", threading.Event())


def test_known_layers_are_fetched_early_only_where_the_server_serves_them(monkeypatch):
    address = layer_store.publish('["points"]', name="left")
    assert prefetch.early_addresses(["left", "right"]) == []  # `streamlit run app.py`: points go in the page
    layer_store.serve_layers()
    assert prefetch.early_addresses(["left", "right"]) == [address]  # "right" not published yet
    ran = []
    monkeypatch.setattr(prefetch, "run_script", lambda body, **data: ran.append((body, data)))
    prefetch.prefetch_layers(["right"])
    assert ran == []  # nothing known: no element at all
    prefetch.prefetch_layers(["left", "right"])
    assert ran == [(prefetch.FETCH_EARLY, {"addresses": [address], "kept": prefetch.EARLY})]
