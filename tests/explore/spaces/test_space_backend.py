"""The manifest records which backend and precision computed a space; older manifests still load."""
import json

import numpy as np

from explore.spaces import Space, load_space, save_space
from explore.spaces.store import MANIFEST_FILE
from tests.fixture_corpora import aspect_corpus
from explore.json_seal import sealed


class StandInEncoder:
    fingerprint = "standin"

    def __init__(self, last_run):
        self.last_run = None
        self._run = last_run

    def encode(self, texts, progress=True):
        self.last_run = self._run
        vectors = np.random.default_rng(0).normal(size=(len(texts), 8)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_the_manifest_records_the_backend_and_precision_that_computed_the_space(tmp_path):
    corpus = aspect_corpus()
    space = Space("generic", "generic", "minilm").fit(corpus, StandInEncoder(("openvino", "bf16")), progress=False)
    assert (space.backend_, space.precision_) == ("openvino", "bf16")
    directory = save_space(space, tmp_path / "generic")
    manifest = json.loads((directory / MANIFEST_FILE).read_text())
    assert (manifest["backend"], manifest["precision"]) == ("openvino", "bf16")
    loaded = load_space(directory, corpus, check_encoder=False)
    assert (loaded.backend_, loaded.precision_) == ("openvino", "bf16")


def test_a_manifest_from_before_backends_loads_as_torch(tmp_path):
    corpus = aspect_corpus()
    space = Space("generic", "generic", "minilm").fit(corpus, StandInEncoder(("torch", "fp32")), progress=False)
    directory = save_space(space, tmp_path / "generic")
    manifest = json.loads((directory / MANIFEST_FILE).read_text())
    del manifest["backend"]
    (directory / MANIFEST_FILE).write_text(json.dumps(sealed(manifest)))
    loaded = load_space(directory, corpus, check_encoder=False)
    assert (loaded.backend_, loaded.precision_) == ("torch", "fp32")


def test_a_head_over_a_built_base_records_what_computed_the_base_not_the_encoders_last_run(tmp_path):
    from explore.encoders import HeadEncoder
    from explore.encoders.head import ProjectionHead
    from explore.encoders.spec import EncoderSpec

    corpus = aspect_corpus()
    base_encoder = StandInEncoder(("openvino", "bf16"))
    base = Space("generic", "generic", "minilm").fit(corpus, base_encoder, progress=False)
    base_encoder._run = ("torch", "fp32")  # a later query on the shared encoder must not leak into the head
    base_encoder.encode(["a query"])
    weight = np.random.default_rng(1).normal(size=(4, 8)).astype(np.float32)
    head = HeadEncoder(EncoderSpec("head", "union", tmp_path), base_encoder,
                       ProjectionHead("standin", (weight,), (None,), ("identity",)))
    union = Space("union", "union", "head").fit(corpus, head, base=base, progress=False)
    assert (union.backend_, union.precision_) == ("openvino", "bf16")
    expected = base.embeddings_ @ weight.T
    np.testing.assert_allclose(union.embeddings_, expected / np.linalg.norm(expected, axis=1, keepdims=True),
                               rtol=1e-5, atol=1e-6)
