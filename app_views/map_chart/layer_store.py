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
_lock = threading.Lock()
_served = threading.Event()


def serve_layers() -> None:
    """Say that this process answers PATH (app_server/map_layers.py does, once mounted)."""
    _served.set()


def layers_served() -> bool:
    return _served.is_set()


def publish(text: str) -> str:
    """Keep `text` (a layer's JSON) gzip-compressed under its digest; its address, relative to a page's."""
    data = text.encode("utf-8")
    digest = hashlib.sha256(data).hexdigest()[:32]
    with _lock:
        if digest in _layers:
            _layers.move_to_end(digest)
        else:
            _layers[digest] = gzip.compress(data, compresslevel=6, mtime=0)
            while len(_layers) > KEPT:
                _layers.popitem(last=False)
    return f"./{PATH}/{digest}.json"


def compressed_layer(digest: str) -> bytes | None:
    """The gzip-compressed JSON published under `digest`; None when it is not (or no longer) kept."""
    with _lock:
        return _layers.get(digest)
