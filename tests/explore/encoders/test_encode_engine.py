import pytest

from explore.cli import main
from explore.encoders.encode_engine import (DEFAULT_CLIENT_PORT, DEFAULT_GCS_PORT, EncodeEngine, EngineRecord,
                                            RayAddress, RayAddressKind, RayEngineConfig)
from explore.errors import AspectNavError
from explore.spaces.store import read_manifest
from tests.fixture_corpora import fixture_corpus


@pytest.mark.parametrize("text, port, kind, host, expected_port, for_ray_init", [
    (None, None, RayAddressKind.LOCAL, None, None, None),
    ("auto", None, RayAddressKind.AUTO, None, None, "auto"),
    ("ray://head", None, RayAddressKind.CLIENT, "head", DEFAULT_CLIENT_PORT, f"ray://head:{DEFAULT_CLIENT_PORT}"),
    ("ray://head", 20001, RayAddressKind.CLIENT, "head", 20001, "ray://head:20001"),
    ("ray://10.0.0.5:20001", None, RayAddressKind.CLIENT, "10.0.0.5", 20001, "ray://10.0.0.5:20001"),
    ("head", None, RayAddressKind.GCS, "head", DEFAULT_GCS_PORT, f"head:{DEFAULT_GCS_PORT}"),
    ("head:7000", 7000, RayAddressKind.GCS, "head", 7000, "head:7000"),
])
def test_an_address_is_parsed_once_into_its_kind_host_and_port(text, port, kind, host, expected_port, for_ray_init):
    address = RayAddress.parse(text, port)
    assert (address.kind, address.host, address.port, address.for_ray_init()) == \
        (kind, host, expected_port, for_ray_init)


@pytest.mark.parametrize("text, port, message", [
    ("ray://head:1000", 2000, "names port 1000 and --port says 2000"),
    ("ray://head:http", None, "'http' is not a port number"),
    ("ray://head:70000", None, "'70000' is not a port number"),
    ("ray://:10001", None, "names no host"),
    ("http://head:10001", None, "use auto, HOST[:PORT] or ray://HOST[:PORT]"),
    (None, 10001, "give --address with it"),
    ("auto", 10001, "give --address (not auto) with it"),
    ("head", 0, "--port must be between 1 and 65535"),
])
def test_a_bad_address_or_port_is_refused_with_what_to_write(text, port, message):
    with pytest.raises(AspectNavError, match=message.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        RayAddress.parse(text, port)


def test_a_config_refuses_no_actors_and_a_timeout_of_nothing():
    with pytest.raises(AspectNavError, match="--actors must be at least 1, not 0"):
        RayEngineConfig(actors=0)
    with pytest.raises(AspectNavError, match="--actor-start-timeout must be above 0 seconds"):
        RayEngineConfig(actor_start_timeout_s=0)


def test_the_engine_record_round_trips_through_the_manifest_form():
    ray = EngineRecord(EncodeEngine.RAY, RayAddressKind.CLIENT, 3)
    assert EngineRecord.from_dict(ray.as_dict()) == ray and str(ray) == "ray (client address, 3 actors)"
    assert EngineRecord.from_dict(None) == EngineRecord() and str(EngineRecord()) == "local"  # an older manifest
    assert EngineRecord().as_dict() == {"engine": "local"}
    with pytest.raises(AspectNavError, match="engine record .* is not one AspectNav writes"):
        EngineRecord.from_dict({"engine": "ray", "address": "carrier pigeon", "actors": 2})


def test_a_local_build_records_the_local_engine_in_its_manifest(capsys):
    from explore.corpus.registry import store_corpus
    from explore.spaces import spaces_for
    from explore.corpus.registry import open_corpus

    store_corpus(fixture_corpus("people"))
    assert main(["spaces", "build", "--corpus", "people", "--force"]) == 0
    assert "encoded locally" in capsys.readouterr().out
    space = spaces_for(open_corpus("people")).open("generic", encode=False)
    assert read_manifest(space.directory_)["engine"] == {"engine": "local"}
    assert main(["spaces", "list", "--corpus", "people"]) == 0
    assert "encoded on" not in capsys.readouterr().out  # local, what every space is unless asked, goes unsaid


def test_bad_ray_flags_fail_before_any_work(capsys):
    from explore.corpus.registry import store_corpus

    store_corpus(fixture_corpus("people"))
    assert main(["spaces", "build", "--corpus", "people", "--engine", "ray", "--address", "ray://h:1", "--port",
                 "2"]) == 2
    assert "names port 1 and --port says 2" in capsys.readouterr().err
    assert main(["spaces", "build", "--corpus", "people", "--engine", "ray", "--actors", "0"]) == 2
    assert "--actors must be at least 1" in capsys.readouterr().err
