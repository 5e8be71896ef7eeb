"""Map layers (a map's labelled points as JSON, payload.MapLayer) kept for HTTP: where the server serves them
(serve.py mounts app_server/map_layers.py), a map's component is sent a short address instead of a megabyte of JSON
on every run, and the browser fetches it once (off the page's main thread; cached while the layer is the same).
Without that server (`streamlit run app.py`, AppTest) the JSON goes in the component's data as before."""
from __future__ import annotations

import gzip
import hashlib
import threading
from collections import OrderedDict

PATH = "_an/map-layers"  # below the page's own address: "./_an/map-layers/<digest>.json"
KEPT = 48  # layers (a 10,000-point map's is about 1 MiB, a fifth of that compressed)
_layers: OrderedDict[str, bytes] = OrderedDict()
_named: OrderedDict[str, str] = OrderedDict()  # a layer's name (payload.MapLayer.key) -> its digest
_lock = threading.Lock()
_served = threading.Event()


def serve_layers() -> None:
    """Say that this process answers PATH (app_server/map_layers.py does, once mounted)."""
    _served.set()


def layers_served() -> bool:
    return _served.is_set()


def content_digest(text: str) -> str:
    """The digest a layer's JSON is kept and addressed under."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _address(digest: str) -> str:
    return f"./{PATH}/{digest}.json"


def publish(text: str, digest: str | None = None, name: str | None = None) -> str:
    """Keep `text` (a layer's JSON) gzip-compressed under its digest (`digest`, when the caller made it once:
    content_digest(text)), and under `name` when given (address_of); its address, relative to a page's. Encoded
    and compressed only when not kept yet."""
    digest = digest or content_digest(text)
    with _lock:
        kept = digest in _layers
        if kept:
            _layers.move_to_end(digest)
        if name is not None:
            _named[name] = digest
            _named.move_to_end(name)
            while len(_named) > KEPT:
                _named.popitem(last=False)
    if not kept:
        packed = gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0)
        with _lock:
            _layers[digest] = packed
            while len(_layers) > KEPT:
                _layers.popitem(last=False)
    return _address(digest)


def address_of(name: str) -> str | None:
    """The address of the layer last published under `name`, while it is kept; None before that."""
    with _lock:
        digest = _named.get(name)
        return _address(digest) if digest in _layers else None


def compressed_layer(digest: str) -> bytes | None:
    """The gzip-compressed JSON published under `digest`; None when it is not (or no longer) kept."""
    with _lock:
        return _layers.get(digest)
