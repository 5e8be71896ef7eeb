import subprocess
import sys

import numpy as np
import pytest

from explore.encoders import load_encoder, save_head

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


@pytest.mark.slow
def test_a_callers_bar_shows_before_the_model_runs_then_follows_every_batch(minilm, isolated_home):
    from explore.encoders.encoder import TransformerEncoder

    encoder = TransformerEncoder(minilm.spec, minilm.model_dir, precision="fp32", backend="torch")
    seen = []
    encoder.encode(TEXTS, batch_size=2, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, len(TEXTS)) and seen[-1] == (len(TEXTS), len(TEXTS))
    assert [done for done, _ in seen] == sorted(done for done, _ in seen)


@pytest.mark.slow
def test_auto_runs_small_encodes_on_torch_without_measuring(minilm, isolated_home):
    from explore.encoders.encoder import TransformerEncoder

    auto = TransformerEncoder(minilm.spec, minilm.model_dir, precision="auto", backend="auto")
    auto.__dict__["model"] = minilm.model
    auto.encode(TEXTS, progress=False)
    assert auto.last_run[0] == "torch" and auto.choice_ is None
    assert not (isolated_home / "encoders").exists()  # no export, no calibration for a query-sized encode


@pytest.mark.slow
@pytest.mark.parametrize("backend,precision", [("openvino", "fp32"), ("openvino", "auto"), ("onnx", "fp32")])
def test_exported_backends_match_torch_fp32_and_export_into_the_data_home(minilm, isolated_home, backend, precision):
    from explore.encoders.backend import EncoderBackend
    from explore.encoders.encoder import TransformerEncoder

    for module in EncoderBackend(backend).modules:
        pytest.importorskip(module)
    fp32 = TransformerEncoder(minilm.spec, minilm.model_dir, precision="fp32", backend="torch")
    other = TransformerEncoder(minilm.spec, minilm.model_dir, precision=precision, backend=backend)
    fp32.__dict__["model"] = other.__dict__["model"] = minilm.model
    cosines = (other.encode(TEXTS, progress=False) * fp32.encode(TEXTS, progress=False)).sum(axis=1)
    assert cosines.min() >= (0.99999 if other.last_run[1] == "fp32" else 0.999), cosines
    assert other.last_run[0] == backend and other.last_run[1] in ("fp32", "bf16", "fp16")
    assert list((isolated_home / "encoders" / minilm.fingerprint).glob(f"{backend}/model.*"))


@pytest.mark.slow
def test_int8_prints_its_neighbour_overlap_with_fp32(minilm, capsys):
    from explore.encoders.encoder import TransformerEncoder

    pytest.importorskip("onnxruntime")
    int8 = TransformerEncoder(minilm.spec, minilm.model_dir, precision="int8", backend="onnx")
    int8.__dict__["model"] = minilm.model
    int8.encode(TEXTS * 3, progress=True)
    assert int8.last_run == ("onnx", "int8")
    assert "onnx int8" in capsys.readouterr().err and "nn@10 overlap" in int8.choice_.summary()
