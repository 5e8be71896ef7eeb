"""Map figures as the renderer's JSON: long float arrays as Plotly's base64 float32, short ones and text as JSON,
no template; a layer's JSON made once."""
from __future__ import annotations

import base64
import json

import numpy as np
import plotly.graph_objects as go

from app_views.map_chart.payload import PLAIN_UP_TO, MapLayer, figure_json, plain, traces_json


def _floats(value: dict) -> list[float]:
    assert value["dtype"] == "f4"
    return np.frombuffer(base64.b64decode(value["bdata"]), dtype="<f4").tolist()


def test_long_float_arrays_are_base64_float32_and_the_rest_stays_json():
    many = np.linspace(0, 1, PLAIN_UP_TO + 1)
    assert _floats(plain(many)) == np.float32(many).tolist()
    assert plain(np.array([1.5, 2.5])) == [1.5, 2.5]  # a seed's place stays exact and legible
    assert plain(np.array(["a", "<b>x</b>"], dtype=object)) == ["a", "<b>x</b>"]
    assert plain({"x": [np.float64(2.0), None], "n": np.int64(3)}) == {"x": [2.0, None], "n": 3}


def test_a_figure_s_json_has_its_traces_and_layout_but_no_template():
    trace = go.Scattergl(x=np.arange(100.0), y=np.arange(100.0), customdata=np.array(["a"] * 100, dtype=object),
                         hovertext=np.array(["<b>A &amp; B</b>"] * 100, dtype=object), name="People (100)")
    figure = go.Figure([trace], layout=dict(title=dict(text="generic"), uirevision="r1"))
    spec = json.loads(figure_json(figure))
    assert "template" not in spec["layout"] and spec["layout"]["uirevision"] == "r1"
    (drawn,) = spec["data"]
    assert _floats(drawn["x"]) == list(range(100)) and drawn["hovertext"][0] == "<b>A &amp; B</b>"
    layer = MapLayer.of("map-key", [trace])
    assert layer.traces == (trace,) and json.loads(layer.json) == json.loads(traces_json([trace]))
    assert json.loads(layer.json)[0]["name"] == "People (100)"
