import subprocess
import sys

import numpy as np
import pytest

from explore.encoders import choose_autocast_dtype, load_encoder, save_head

TEXTS = [
    "Marie Curie was a physicist and chemist who researched radioactivity.",
    "Paris is the capital and largest city of France.",
    "Bach",
    "Claude Monet was a French painter and a founder of impressionist painting, " * 4,
    "Mercury is the smallest planet in the Solar System.",
]


def test_encode_is_normalised_float32_in_input_order_and_matches_sentence_transformers(minilm):
    from explore.encoders.encoder import TransformerEncoder

    fp32 = TransformerEncoder(minilm.spec, minilm.model_dir, precision="fp32")  # never the host's automatic choice
    fp32.__dict__["model"] = minilm.model
    vectors = fp32.encode(TEXTS, batch_size=2, progress=False)
    assert vectors.shape == (5, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    plain = minilm.model.encode(TEXTS, normalize_embeddings=True)  # length sorting must not reorder rows
    assert (vectors * plain).sum(axis=1).min() > 0.9999
    assert minilm.encode([], progress=False).shape == (0, 384)


def test_bf16_autocast_stays_within_cosine_0_999_of_fp32(minilm):
    from explore.encoders.encoder import TransformerEncoder

    bf16 = TransformerEncoder(minilm.spec, minilm.model_dir, precision="bf16")
    bf16.__dict__["model"] = minilm.model  # same weights, no second load
    cosines = (bf16.encode(TEXTS, progress=False) * minilm.encode(TEXTS, progress=False)).sum(axis=1)
    assert cosines.min() >= 0.999, cosines


def test_auto_precision_is_fp32_on_cpus_without_native_bf16(monkeypatch):
    import torch

    from explore.encoders import encoder

    monkeypatch.setattr(encoder, "cpu_supports_bf16", lambda: False)
    assert choose_autocast_dtype("cpu") is None
    monkeypatch.setattr(encoder, "cpu_supports_bf16", lambda: True)
    assert choose_autocast_dtype("cpu") is torch.bfloat16
    assert choose_autocast_dtype("cpu", "fp32") is None


def test_head_encoder_projects_its_base(minilm, tmp_path):
    rng = np.random.default_rng(1)
    save_head(tmp_path / "head", [rng.normal(size=(16, 384))], [None], ["identity"], base_encoder="minilm")
    head = load_encoder(tmp_path / "head")
    assert head.base is minilm and head.fingerprint != minilm.fingerprint
    out = head.encode(TEXTS[:2], progress=False)
    np.testing.assert_allclose(out, head.project(minilm.encode(TEXTS[:2], progress=False)), atol=1e-6)


def test_loading_an_encoder_and_its_fingerprint_import_no_torch():
    code = ("import sys; from explore.encoders import load_encoder; e = load_encoder('minilm'); "
            "f = e.fingerprint; assert not {'torch', 'sentence_transformers'} & set(sys.modules); print(f)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == load_encoder("minilm").fingerprint


def test_unknown_precision_is_refused(minilm):
    from explore.encoders.encoder import TransformerEncoder
    from explore.errors import AspectNavError

    with pytest.raises(AspectNavError, match="precision"):
        TransformerEncoder(minilm.spec, minilm.model_dir, precision="int3")
