import numpy as np

from explore.encoders import batching
from explore.encoders.batching import encode_in_batches


class _FixedRunner:
    """Stand-in runner: row i of `vectors` for text str(i), unnormalised."""
    backend, precision = "torch", "fp32"

    def __init__(self, vectors):
        self.vectors, self.calls = vectors, []

    def __call__(self, texts):
        import torch

        self.calls.append(len(texts))
        return torch.from_numpy(self.vectors[[int(t) for t in texts]] * 3.0)


def test_batches_go_longest_first_and_rows_come_back_in_input_order_normalised(capsys):
    vectors = np.random.default_rng(0).normal(size=(12, 4)).astype(np.float32)
    texts = [str(i) for i in range(12)]
    runner = _FixedRunner(vectors)
    out = encode_in_batches(runner, texts, batch_size=5, progress=False)
    np.testing.assert_allclose(out, vectors / np.linalg.norm(vectors, axis=1, keepdims=True), atol=1e-6)
    assert runner.calls == [5, 5, 2] and capsys.readouterr().err == ""


def test_a_long_encode_shows_texts_per_second(monkeypatch, capsys):
    monkeypatch.setattr(batching, "PROGRESS_AFTER_S", 0)  # "long" from the first text on
    vectors = np.eye(6, dtype=np.float32)
    batching.encode_in_batches(_FixedRunner(vectors), [str(i) for i in range(6)], batch_size=2, label="encoding")
    err = capsys.readouterr().err
    assert "encoding" in err and "6/6" in err and "text/s" in err


def test_a_caller_can_draw_its_own_progress_from_the_first_batch_to_the_last():
    seen = []
    out = encode_in_batches(_FixedRunner(np.eye(5, dtype=np.float32)), list("01234"), 2,
                            progress=lambda done, total: seen.append((done, total)))
    assert out.shape == (5, 5) and seen == [(0, 5), (2, 5), (4, 5), (5, 5)]


def test_a_deadline_stops_the_encode():
    assert encode_in_batches(_FixedRunner(np.eye(4, dtype=np.float32)), list("0123"), 1, progress=False,
                             deadline=0.0) is None
