"""A multi-node Ray cluster on one machine (`ray.cluster_utils.Cluster`): a head that runs no tasks and worker nodes
of a few CPUs each, every node its own raylet and object store, as on separate machines. Its processes import this
checkout (PYTHONPATH), so actors run the code under test. Shared by the Ray tests and the Ray benchmark."""
from __future__ import annotations

import os
import socket
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
OBJECT_STORE_BYTES = 96 * 1024 ** 2  # the smallest Ray accepts is 75 MiB; texts and vectors of a test are KBs


@dataclass
class SimulatedCluster:
    cluster: object  # ray.cluster_utils.Cluster
    workers: list = field(default_factory=list)  # the worker nodes, in the order they were added
    client_port: int | None = None  # the head's Ray client server port (ray://127.0.0.1:PORT)

    @property
    def address(self) -> str:
        return self.cluster.address

    def connect(self):
        """This process as the cluster's driver (not through the client)."""
        import ray

        if not ray.is_initialized():
            ray.init(address=self.address, log_to_driver=False, logging_level="WARNING")
        return ray

    def kill_worker(self, node) -> None:
        """Take a worker node away as a machine dies: its raylet and every process on it killed, not stopped."""
        self.cluster.remove_node(node, allow_graceful=False)
        self.workers.remove(node)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def simulated_cluster(workers: int = 2, cpus_per_worker: int = 1, client_port: int | None = None):
    """A head (no CPUs: the driver's node, as a real head kept free of work) and `workers` nodes; with
    `client_port`, the head also serves Ray clients there. Shut down, every node, on the way out."""
    import ray
    from ray.cluster_utils import Cluster

    if ray.is_initialized():
        ray.shutdown()  # a driver is connected to one Ray at a time
    paths = [str(CHECKOUT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    # every node inherits these. gRPC's fork handlers can crash the head's client server when it forks the
    # server of a new client while its other threads are in gRPC ("Check failed: next_worker->state == KICKED")
    environment = {"PYTHONPATH": os.pathsep.join(dict.fromkeys(paths)), "HF_HUB_OFFLINE": "1",
                   "GRPC_ENABLE_FORK_SUPPORT": "0"}
    saved = {name: os.environ.get(name) for name in environment}
    os.environ.update(environment)
    head = {"num_cpus": 0, "object_store_memory": OBJECT_STORE_BYTES, "include_dashboard": False}
    if client_port is not None:
        head["ray_client_server_port"] = client_port
    cluster = Cluster(initialize_head=True, head_node_args=head)
    try:
        simulated = SimulatedCluster(cluster, client_port=client_port)
        for _ in range(workers):
            simulated.workers.append(cluster.add_node(num_cpus=cpus_per_worker,
                                                      object_store_memory=OBJECT_STORE_BYTES))
        cluster.wait_for_nodes()
        yield simulated
    finally:
        ray.shutdown()
        cluster.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
