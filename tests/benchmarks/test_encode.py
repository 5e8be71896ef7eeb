"""The encode benchmark's rows: one per backend and precision installed plus auto, quality beside speed."""
import pytest

from explore.encoders.backend import EncoderBackend, installed_backends

pytestmark = pytest.mark.slow


def test_every_installed_backend_gets_a_row_against_plain_fp32_with_its_quality():
    from benchmarks import encode

    *rows, first_use = encode.run(quick=True)
    metrics = [row.metric for row in rows]
    assert any("torch fp32" in m for m in metrics) and any("torch bf16" in m for m in metrics)
    assert sum(", auto (= " in m for m in metrics) == 1  # auto's pick, beside its own row
    if EncoderBackend.OPENVINO in installed_backends():
        assert any("openvino fp32" in m for m in metrics)
    for row in rows:
        assert row.peer_name == "SentenceTransformer.encode fp32" and row.ours and row.peer and not row.lower_is_better
        assert "nn@10 overlap" in row.notes and "min cosine" in row.notes and "native bf16 on this CPU" in row.notes and "cpu flags" in row.notes
        assert 0.0 <= row.extra["nn10_overlap"] <= 1.0
    fp32 = next(row for row in rows if "torch fp32" in row.metric)
    assert fp32.extra["nn10_overlap"] == 1.0 and fp32.extra["min_cosine"] > 0.9999
    # auto's first use: the same texts, both sides loading their model; seconds, with the pick's quality
    assert first_use.metric.startswith("first encode of 16 texts with auto") and first_use.lower_is_better
    assert first_use.ours > 0 and first_use.peer > 0 and "auto chose" in first_use.notes
    assert first_use.extra["nn10_overlap"] >= 0.99 and first_use.extra["min_cosine"] >= 0.999
