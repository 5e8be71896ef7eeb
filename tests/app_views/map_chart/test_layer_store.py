"""Map layers kept for HTTP: one address per content, gzip-compressed, the oldest dropped past KEPT."""
from __future__ import annotations

import gzip

from app_views.map_chart import layer_store


def test_a_layer_is_kept_compressed_under_its_content_s_digest_and_the_oldest_go_first(monkeypatch):
    monkeypatch.setattr(layer_store, "KEPT", 3)
    monkeypatch.setattr(layer_store, "_layers", type(layer_store._layers)())
    addresses = [layer_store.publish(f'["layer {n}"]') for n in range(4)]
    digests = [address.rsplit("/", 1)[1].removesuffix(".json") for address in addresses]
    assert len(set(digests)) == 4 and all(len(d) == 32 for d in digests)
    assert layer_store.compressed_layer(digests[0]) is None  # the oldest, dropped
    assert gzip.decompress(layer_store.compressed_layer(digests[3])).decode() == '["layer 3"]'
    layer_store.publish('["layer 1"]')  # asked again: now the newest, so layer 2 goes next
    layer_store.publish('["layer 4"]')
    assert layer_store.compressed_layer(digests[1]) is not None and layer_store.compressed_layer(digests[2]) is None


def test_a_named_layer_s_address_is_known_while_its_layer_is_kept(monkeypatch):
    monkeypatch.setattr(layer_store, "KEPT", 2)
    monkeypatch.setattr(layer_store, "_layers", type(layer_store._layers)())
    monkeypatch.setattr(layer_store, "_named", type(layer_store._named)())
    assert layer_store.address_of("left map") is None  # never published
    first = layer_store.publish('["seed A"]', name="left map")
    assert layer_store.address_of("left map") == first
    again = layer_store.publish('["another colouring"]', name="left map")  # the same name, new points
    assert layer_store.address_of("left map") == again != first
    layer_store.publish('["x"]')
    layer_store.publish('["y"]')  # the named layer is dropped from the store: its address is not offered
    assert layer_store.address_of("left map") is None
