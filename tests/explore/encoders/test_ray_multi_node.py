"""`--engine ray` on a Ray cluster of three nodes simulated on this machine (tests/ray_cluster.py): reached by its
GCS address and through the Ray client on loopback, short of resources, and losing a worker node mid-encode."""
import numpy as np
import pytest

from explore.cli import main
from explore.corpus.registry import open_corpus, store_corpus
from explore.encoders import load_encoder
from explore.encoders.encode_engine import EncodeEngine, EngineRecord, RayAddress, RayAddressKind, RayEngineConfig
from explore.errors import AspectNavError
from explore.spaces.article_text import article_text
from explore.spaces.store import read_manifest
from tests.fixture_corpora import fixture_corpus

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]  # a cluster that hangs fails the test, not the run


@pytest.fixture(scope="module")
def cluster():
    """Head (no CPUs, serves Ray clients) and two worker nodes of one CPU: one actor each."""
    pytest.importorskip("ray")
    from tests.ray_cluster import free_port, simulated_cluster

    with simulated_cluster(workers=2, cpus_per_worker=1, client_port=free_port()) as simulated:
        yield simulated


@pytest.fixture
def driver(cluster):
    """Each test connects as it says (GCS address, client); its driver leaves at the end, its actors with it."""
    import ray

    yield cluster
    ray.shutdown()


@pytest.fixture(scope="module")
def minilm_local():
    encoder = load_encoder("minilm")
    return lambda texts: encoder.encode(texts, progress=False)


def test_spaces_build_through_the_ray_client_writes_the_local_space_and_says_so(driver, minilm_local, capfd):
    store_corpus(fixture_corpus())
    assert main(["spaces", "build", "--corpus", "fixture", "--engine", "ray", "--address", "ray://127.0.0.1",
                 "--port", str(driver.client_port), "--actors", "2"]) == 0
    out, err = capfd.readouterr()
    assert "encoded on ray (client address, 2 actors)" in out
    ray_lines = [line for line in err.splitlines() if "INFO" in line or "logging_progress" in line]
    assert not ray_lines, f"Ray logged to the console:\n" + "\n".join(ray_lines[:20])
    from explore.spaces import spaces_for

    space = spaces_for(open_corpus("fixture")).open("generic", encode=False)
    local = minilm_local([article_text(a) for a in fixture_corpus()])
    assert float((space.embeddings_ * local).sum(axis=1).min()) >= 0.999999 - 1e-3  # stored fp16
    assert read_manifest(space.directory_)["engine"] == {"engine": "ray", "address": "client", "actors": 2}
    assert main(["spaces", "list", "--corpus", "fixture"]) == 0
    assert "encoded on ray (client address, 2 actors)" in capfd.readouterr().out


def test_a_cluster_that_cannot_start_its_actors_fails_within_the_timeout_with_a_message(driver):
    import ray

    texts = [f"text {i}" for i in range(200)]  # 4 blocks: room for 3 actors
    config = RayEngineConfig(RayAddress.parse(driver.address), actors=3, actor_start_timeout_s=15)  # 2 CPUs: 2 fit
    with pytest.raises(AspectNavError) as failure:
        from explore.encoders.ray_encoder import RayEncoder

        RayEncoder(load_encoder("minilm"), config).encode(texts, progress=False)
    message = str(failure.value)
    assert f"The Ray cluster at {driver.address} did not start 3 encoder actors (1 CPU each) within 15 s" in message
    assert "of 2 CPUs" in message and "fewer --actors" in message and "--actor-start-timeout" in message
    assert ray.is_initialized()


def test_an_encoder_the_nodes_cannot_load_fails_the_encode_with_a_message(driver, tmp_path):
    import shutil

    from explore.encoders.package_weights import minilm_dir
    from explore.encoders.ray_encoder import RayEncoder

    copy = tmp_path / "minilm-copy"
    shutil.copytree(minilm_dir(), copy)
    encoder = load_encoder(f"dir:{copy}")  # here it exists; the model loads on the first encode
    shutil.rmtree(copy)  # and on no node
    config = RayEngineConfig(RayAddress.parse(driver.address), actors=2, actor_start_timeout_s=120)
    with pytest.raises(AspectNavError) as failure:
        RayEncoder(encoder, config).encode([f"text {i}" for i in range(100)], progress=False)
    message = str(failure.value)
    assert f"The encode on the Ray cluster at {driver.address} failed: " in message
    assert str(copy) in message and "Every node needs AspectNav installed" in message


def test_a_worker_node_killed_mid_encode_and_the_space_still_equals_the_local_one(driver, minilm_local):
    from explore.encoders.ray_encoder import RayEncoder

    texts = [f"Article {i}: a town of {i % 37} thousand people on the river {i % 11}." for i in range(240)]
    encoder = RayEncoder(load_encoder("minilm"), RayEngineConfig(RayAddress.parse(driver.address), actors=2),
                         rows_per_batch=8)  # 30 batches: most are still to come when a node dies
    killed_at = []

    def kill_a_worker_at_the_first_batch(done: int, total: int):
        if not killed_at:
            killed_at.append(done)
            driver.kill_worker(driver.workers[0])  # each worker node holds one of the two actors

    vectors = encoder.encode(texts, progress=kill_a_worker_at_the_first_batch)
    assert killed_at and killed_at[0] < len(texts) // 2 and len(driver.workers) == 1
    local = minilm_local(texts)
    assert vectors.shape == local.shape
    # the same model on other processes: equal to float rounding (a CPU with AMX rounds its matmuls another way)
    assert float((vectors * local).sum(axis=1).min()) >= 0.99999
    assert encoder.engine_record == EngineRecord(EncodeEngine.RAY, RayAddressKind.GCS, 2)
