#!/usr/bin/env python3
"""Baseline for jumpnet's all-pairs metrics: diameter and ASPL with networkx.

Reads an edge list (one "u v" line per link, as written by
`cargo run --release -p jumpnet-core --example write_edge_list`), runs a straightforward
all-pairs BFS (networkx.all_pairs_shortest_path_length) and prints the diameter, the ASPL
over ordered pairs of distinct switches and the seconds the all-pairs pass took.

Usage: scripts/networkx_baseline.py [EDGE_FILE]
(default: target/jumpnet-bench/random_shortcut_n4096_d23_seed1.edges)
"""

import sys
import time
from pathlib import Path

import networkx as nx

DEFAULT = Path(__file__).resolve().parent.parent / "target" / "jumpnet-bench" / (
    "random_shortcut_n4096_d23_seed1.edges"
)


def main() -> int:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not path.exists():
        print(f"edge list {path} not found: run the write_edge_list example first", file=sys.stderr)
        return 2
    g = nx.Graph()
    with path.open() as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2:
                g.add_edge(int(parts[0]), int(parts[1]))
    n = g.number_of_nodes()

    start = time.perf_counter()
    diameter = 0
    total = 0
    pairs = 0
    for _, lengths in nx.all_pairs_shortest_path_length(g):
        for d in lengths.values():
            if d > 0:
                total += d
                pairs += 1
                if d > diameter:
                    diameter = d
    seconds = time.perf_counter() - start

    connected = pairs == n * (n - 1)
    print(f"edges: {path}")
    print(f"switches: {n}  links: {g.number_of_edges()}  connected: {connected}")
    print(f"networkx diameter: {diameter}")
    print(f"networkx aspl: {total / pairs if pairs else 0.0:.6f}")
    print(f"networkx seconds: {seconds:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
