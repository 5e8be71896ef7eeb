import sys

import numpy as np
import pytest

from explore.cli import main
from explore.corpus.registry import open_corpus, store_corpus
from explore.encoders import load_encoder
from explore.encoders.encode_engine import EncodeEngine, EngineRecord, RayAddressKind, RayEngineConfig
from explore.encoders.ray_encoder import RayEncoder
from explore.errors import AspectNavError
from explore.spaces.article_text import article_text
from tests.fixture_corpora import fixture_corpus


def test_engine_ray_without_ray_installed_says_how_to_install(monkeypatch, capsys):
    store_corpus(fixture_corpus("people"))
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without the extra sees: ImportError
    assert main(["spaces", "build", "--corpus", "people", "--engine", "ray"]) == 2
    err = capsys.readouterr().err
    assert "--engine ray needs Ray" in err and "pip install -e '.[ray]'" in err and "encoded locally" in err


def test_ray_flags_without_the_ray_engine_are_refused(capsys):
    store_corpus(fixture_corpus("people"))
    for flag, value in (("--address", "auto"), ("--port", "10001"), ("--actors", "2"), ("--actor-start-timeout", "9")):
        assert main(["spaces", "build", "--corpus", "people", flag, value]) == 2
        assert "go with --engine ray" in capsys.readouterr().err


def test_engine_is_parsed_once():
    assert EncodeEngine.parse(None) is EncodeEngine.LOCAL and str(EncodeEngine.parse("ray")) == "ray"
    with pytest.raises(AspectNavError, match="Unknown engine 'spark'; use local or ray"):
        EncodeEngine.parse("spark")


@pytest.fixture(scope="module")
def local_vectors():
    texts = [article_text(a) for a in fixture_corpus()]
    return texts, load_encoder("minilm").encode(texts, progress=False)


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_ray_encode_matches_a_local_encode_row_for_row(ray_cluster, local_vectors, workers):
    texts, local = local_vectors
    # 4 blocks of a whole batch each: rows come back mixed
    encoder = RayEncoder(load_encoder("minilm"), RayEngineConfig(actors=workers), rows_per_batch=16)
    vectors = encoder.encode(texts, progress=False)
    assert vectors.shape == local.shape and vectors.dtype == np.float32
    assert float((vectors * local).sum(axis=1).min()) >= 0.9999
    assert encoder.pool_ == {"workers": workers, "num_gpus": 0, "num_cpus": 2 // workers}
    assert encoder.last_run == load_encoder("minilm").last_run  # the same backend and precision


@pytest.mark.slow
def test_spaces_build_engine_ray_writes_the_space_a_local_build_writes(ray_cluster, local_vectors, capsys):
    store_corpus(fixture_corpus())
    assert main(["spaces", "build", "--corpus", "fixture", "--engine", "ray", "--workers", "2"]) == 0
    assert "encoded on ray (local address, 2 actors)" in capsys.readouterr().out
    from explore.spaces import spaces_for

    space = spaces_for(open_corpus("fixture")).open("generic", encode=False)  # stored and valid: no encode here
    _, local = local_vectors
    assert float((space.embeddings_ * local).sum(axis=1).min()) >= 0.9999
    assert space.encoder_fingerprint_ == load_encoder("minilm").fingerprint
    assert space.engine_ == EngineRecord(EncodeEngine.RAY, RayAddressKind.LOCAL, 2)  # from the manifest


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_a_ray_client_address_with_no_cluster_behind_it_says_how_to_start_one(capsys):
    pytest.importorskip("ray")
    import ray

    from tests.ray_cluster import free_port

    if ray.is_initialized():
        ray.shutdown()  # a driver of another Ray would be used as it is
    store_corpus(fixture_corpus("people"))
    port = free_port()  # nothing listens there
    assert main(["spaces", "build", "--corpus", "people", "--engine", "ray", "--address", "ray://127.0.0.1",
                 "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"Could not reach Ray at ray://127.0.0.1:{port}" in err
    assert f"`ray start --head --ray-client-server-port {port}` on 127.0.0.1" in err


@pytest.mark.timeout(60)
def test_a_head_address_with_no_cluster_behind_it_fails_fast_and_says_what_to_start(capsys):
    """Issue #54 item 4: `--address HOST:PORT` to a dead head waited over 200 s (Ray retries its GCS connection 20
    times, 40 s each, warning each time); now a port nothing listens on is said at once, with what to start there."""
    import time

    pytest.importorskip("ray")
    import ray

    from tests.ray_cluster import free_port

    if ray.is_initialized():
        ray.shutdown()  # a driver of another Ray would be used as it is
    store_corpus(fixture_corpus("people"))
    port = free_port()  # nothing listens there
    start = time.monotonic()
    assert main(["spaces", "build", "--corpus", "people", "--engine", "ray", "--address", f"127.0.0.1:{port}"]) == 2
    assert time.monotonic() - start < 30
    err = capsys.readouterr().err
    assert f"Could not reach Ray at 127.0.0.1:{port}" in err and "nothing listens there" in err
    assert f"`ray start --head --port {port}` on 127.0.0.1" in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_head_that_takes_the_connection_and_never_answers_is_given_up_on_after_one_attempt(tmp_path):
    """The other half of issue #54 item 4: a port that takes the TCP connection but is no Ray head (a hung head) is
    tried once, within Ray's own connect timeouts (lowered here so the test is quick), not 20 times."""
    import os
    import socket
    import subprocess
    import time

    pytest.importorskip("ray")
    store_corpus(fixture_corpus("people"))
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes the handshake; nothing ever answers
        port = silent.getsockname()[1]
        env = {**os.environ, "RAY_gcs_rpc_server_connect_timeout_s": "1", "RAY_py_gcs_connect_timeout_s": "2"}
        env.pop("RAY_gcs_server_port_wait_time_s", None)
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "explore", "spaces", "build", "--corpus", "people", "--engine",
                               "ray", "--address", f"127.0.0.1:{port}"], env=env, capture_output=True, text=True,
                              timeout=110)
        took = time.monotonic() - start
    assert done.returncode == 2 and f"Could not reach Ray at 127.0.0.1:{port}" in done.stderr, done.stderr[-2000:]
    assert f"`ray start --head --port {port}` on 127.0.0.1" in done.stderr and "Traceback" not in done.stderr
    assert took < 45, took  # 20 attempts of ~4 s each would be 80 s and more
