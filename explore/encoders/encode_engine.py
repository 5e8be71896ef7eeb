"""What runs a space's encode, as typed values: the engine (local or Ray), where a Ray cluster is and how it is
reached, the actor pool, and the record of all that a space's manifest keeps. Parsed once, here, from the CLI's
strings; every other module takes these values."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from explore.errors import AspectNavError

DEFAULT_CLIENT_PORT = 10001  # `ray start --head` serves Ray clients here unless --ray-client-server-port says else
DEFAULT_GCS_PORT = 6379  # `ray start --head`'s --port
DEFAULT_ACTOR_START_TIMEOUT_S = 300.0  # an actor imports torch and loads its encoder: ~20 s on a busy 2-core node


class EncodeEngine(Enum):
    """What runs a space's encode: this process (default) or a Ray cluster."""

    LOCAL = "local"
    RAY = "ray"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: "str | EncodeEngine | None") -> "EncodeEngine":
        if isinstance(text, cls):
            return text
        try:
            return cls(text or "local")
        except ValueError:
            raise AspectNavError(f"Unknown engine {text!r}; use {' or '.join(e.value for e in cls)}.") from None


class RayAddressKind(Enum):
    """How the encode reaches Ray: a Ray started for this build, the cluster this machine joined (`auto`), a
    cluster's head by its GCS address (HOST:PORT, from a cluster node), or a Ray client (ray://HOST:PORT, from
    anywhere that reaches the head's client server port)."""

    LOCAL = "local"
    AUTO = "auto"
    GCS = "gcs"
    CLIENT = "client"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RayAddress:
    kind: RayAddressKind
    host: str | None = None
    port: int | None = None

    @classmethod
    def parse(cls, text: str | None, port: int | None = None) -> "RayAddress":
        """`--address` (None, auto, HOST[:PORT], ray://HOST[:PORT]) and `--port` (the port when the address
        names none: 10001 for ray://, 6379 for a GCS address)."""
        if port is not None and not 0 < port < 65536:
            raise AspectNavError(f"--port must be between 1 and 65535, not {port}.")
        text = (text or "").strip()
        if not text or text == "auto":
            if port is not None:
                raise AspectNavError("--port names the port of the cluster at --address HOST or ray://HOST; "
                                     f"give --address{' (not auto)' if text else ''} with it.")
            return cls(RayAddressKind.AUTO if text else RayAddressKind.LOCAL)
        kind, rest = (RayAddressKind.CLIENT, text[len("ray://"):]) if text.startswith("ray://") else \
            (RayAddressKind.GCS, text)
        if "://" in rest or "/" in rest:
            raise AspectNavError(f"--address {text!r}: use auto, HOST[:PORT] or ray://HOST[:PORT].")
        host, _, written = rest.rpartition(":") if ":" in rest else (rest, "", "")
        if not host:
            raise AspectNavError(f"--address {text!r} names no host; use auto, HOST[:PORT] or ray://HOST[:PORT].")
        if written:
            if not written.isdigit() or not 0 < int(written) < 65536:
                raise AspectNavError(f"--address {text!r}: the port {written!r} is not a port number.")
            if port is not None and port != int(written):
                raise AspectNavError(f"--address {text!r} names port {written} and --port says {port}; give one.")
            port = int(written)
        return cls(kind, host, port or (DEFAULT_CLIENT_PORT if kind is RayAddressKind.CLIENT else DEFAULT_GCS_PORT))

    def for_ray_init(self) -> str | None:
        """The address `ray.init` takes."""
        if self.kind is RayAddressKind.LOCAL:
            return None
        if self.kind is RayAddressKind.AUTO:
            return "auto"
        return f"{'ray://' if self.kind is RayAddressKind.CLIENT else ''}{self.host}:{self.port}"

    def __str__(self) -> str:
        return self.for_ray_init() or "a local Ray started for this build"


@dataclass(frozen=True)
class RayEngineConfig:
    """`spaces build --engine ray`'s settings. `actors`: encoder actors (None: one per GPU, else one per two CPUs
    of the cluster); `actor_start_timeout_s`: how long the pool may take to start before the build fails with a
    message (a cluster short of resources otherwise waits for ever)."""

    address: RayAddress = RayAddress(RayAddressKind.LOCAL)
    actors: int | None = None
    actor_start_timeout_s: float = DEFAULT_ACTOR_START_TIMEOUT_S

    def __post_init__(self):
        if self.actors is not None and self.actors < 1:
            raise AspectNavError(f"--actors must be at least 1, not {self.actors}.")
        if not self.actor_start_timeout_s > 0:
            raise AspectNavError(f"--actor-start-timeout must be above 0 seconds, not {self.actor_start_timeout_s}.")


@dataclass(frozen=True)
class EngineRecord:
    """What encoded a stored space, as its manifest keeps it: local, or Ray with how it was reached and the
    actors that ran."""

    engine: EncodeEngine = EncodeEngine.LOCAL
    address: RayAddressKind | None = None
    actors: int | None = None

    def as_dict(self) -> dict:
        if self.engine is EncodeEngine.LOCAL:
            return {"engine": str(self.engine)}
        return {"engine": str(self.engine), "address": str(self.address), "actors": self.actors}

    @classmethod
    def from_dict(cls, record: dict | None) -> "EngineRecord":
        """A manifest's `engine` (a manifest from before engines were recorded: local)."""
        if not record:
            return cls()
        try:
            engine = EncodeEngine.parse(record.get("engine"))
            if engine is EncodeEngine.LOCAL:
                return cls()
            return cls(engine, RayAddressKind(record["address"]), int(record["actors"]))
        except (AttributeError, KeyError, TypeError, ValueError, AspectNavError) as exc:
            raise AspectNavError(f"the manifest's engine record {record!r} is not one AspectNav writes "
                                 f"({type(exc).__name__}: {exc})") from None

    def __str__(self) -> str:
        if self.engine is EncodeEngine.LOCAL:
            return "local"
        return f"ray ({self.address} address, {self.actors} actor{'s' if self.actors != 1 else ''})"


LOCAL_ENGINE = EngineRecord()
