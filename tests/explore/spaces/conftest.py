"""The spaces tests' registry over a temporary data home, and a count of what the transformer encodes."""
import pytest

from explore.encoders.encoder import TransformerEncoder
from explore.spaces import SpaceRegistry
from tests.fixture_corpora import aspect_corpus


@pytest.fixture
def registry(tmp_path, minilm):
    return SpaceRegistry(aspect_corpus(), home=tmp_path / "home", shipped=tmp_path / "shipped", progress=False)


@pytest.fixture
def indexed(monkeypatch):
    """Search the fixture's tiny spaces through an hnswlib index, as a corpus above EXACT_BELOW would be."""
    monkeypatch.setattr("explore.spaces.vector_index.EXACT_BELOW", 0)


@pytest.fixture
def count_encodes(monkeypatch):
    calls = []
    original = TransformerEncoder.encode

    def counting(self, texts, *args, **kwargs):
        calls.append(len(texts))
        return original(self, texts, *args, **kwargs)

    monkeypatch.setattr(TransformerEncoder, "encode", counting)
    return calls
