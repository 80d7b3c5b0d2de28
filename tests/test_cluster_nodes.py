"""The optimal search on a Ray cluster of more than one node: two nodes of one CPU each,
started on this machine by Ray's own test helper (`ray.cluster_utils.Cluster`: a raylet,
object store and workers per node, as on separate machines, only the network is local).
The actors spread over both nodes and the search gives the local optimum and tree. Slow
(CI runs it); Ray starts once for the module."""

from __future__ import annotations

import numpy as np
import pytest

from keypeg.published import published
from keypeg.rules import Rules
from keypeg.solver.search import _part_views, _per_node, solve_optimal
from keypeg.space import get_space

FIELDS = ("guess", "parent", "response", "depth", "size")


@pytest.fixture(scope="module")
def two_nodes():
    ray = pytest.importorskip("ray")
    from ray.cluster_utils import Cluster as RayTestCluster

    if ray.is_initialized():  # (another module's instance)
        ray.shutdown()
    nodes = RayTestCluster(initialize_head=True,
                           head_node_args={"num_cpus": 1, "include_dashboard": False})
    nodes.add_node(num_cpus=1)
    nodes.wait_for_nodes()
    ray.init(address=nodes.address, include_dashboard=False, log_to_driver=False)
    yield nodes.address
    ray.shutdown()
    nodes.shutdown()


@pytest.mark.slow
@pytest.mark.parametrize("rules,options,expected", [
    (Rules(pegs=4, colors=5), {}, published()["ledger"]["totals"]["4"]["5"]),
    (Rules(pegs=3, colors=5, feedback="positional"), {"max_guesses": 4}, None),
])
def test_two_node_cluster_gives_the_local_optimum_and_tree(two_nodes, rules, options,
                                                           expected):
    import ray

    from keypeg.solver.cluster import Cluster

    local = solve_optimal(rules, workers=2, **options)
    with Cluster(two_nodes) as cluster:
        assert cluster.info() == {"nodes": 2, "cpus": 2}
        # one actor per CPU, one on each node
        assert len(set(ray.get([a.node.remote() for a in cluster.actors]))) == 2
        remote = solve_optimal(rules, cluster=cluster, **options)
    assert remote.total == local.total
    if expected is not None:
        assert remote.total == expected
    assert all(np.array_equal(getattr(local.tree, f), getattr(remote.tree, f))
               for f in FIELDS)
    remote.tree.replay()
    assert remote.stats["cluster_nodes"] == 2 and remote.stats["cluster_cpus"] == 2


class _Shape:
    def __init__(self, nodes: int, cpus: int) -> None:
        self.nodes, self.cpus = nodes, cpus


def test_part_tables_count_the_actors_of_one_node(monkeypatch):
    """Whether the actors solve parts on tables of their own depends on the tables one
    node holds (its actors' and the driver's), not the whole cluster's: with room for two
    tables, two nodes of one CPU keep the full table and one node of two CPUs does not."""
    space = get_space(Rules(pegs=4, colors=6))
    monkeypatch.setenv("KEYPEG_TABLE_BUDGET", str(2 * space.table_bytes))
    assert _per_node(_Shape(2, 2)) == 1 and _per_node(_Shape(1, 2)) == 2
    assert _per_node(_Shape(3, 8)) == 3  # (unequal nodes: the most a node may hold)
    assert not _part_views(space, _Shape(2, 2))
    assert _part_views(space, _Shape(1, 2))
