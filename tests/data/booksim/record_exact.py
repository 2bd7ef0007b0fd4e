#!/usr/bin/env python3
"""Runs BookSim2 on jumpnet's exact cases and records the statistics block it printed.

usage: BOOKSIM=/path/to/booksim2/src/booksim python3 record_exact.py [CASE...]

exact.json lists runs with one outcome in both simulators: `sim_type = batch` with
permutation traffic on networks whose routing draws nothing at random, with allocators that
draw nothing either, and one-class runs whose only draws are the traffic's, which jumpnet
makes as BookSim2 does (docs/booksim.md §3.9). BookSim2 (built from source outside this repository at the commit named in exact.json:
`cd src && make`, with Debian's flex and bison) prints the same block on every run of such a
case, and so must `jumpnet sim --booksim ... --format booksim`. For every case this runs

    $BOOKSIM configs/<config> <overrides...>

from this directory and keeps, in exact_results.json, the command and the lines BookSim2
printed from `Time taken is ... cycles` to the end, without its wall-clock `Total run time`
line (with CASE names, only those cases are run again and replaced).
host-cli/tests/booksim_exact.rs compares jumpnet's block with them (docs/booksim.md §5).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def block(booksim, case):
    cmd = [booksim, f"configs/{case['config']}", *case["overrides"]]
    out = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True, timeout=600).stdout
    at = out.find("Time taken is")
    if at < 0:
        sys.exit(f"{case['name']}: BookSim2 printed no statistics block:\n{out[-2000:]}")
    lines = [l for l in out[at:].splitlines() if l and not l.startswith("Total run time")]
    return {"case": case["name"], "command": " ".join(["booksim", *cmd[1:]]), "block": lines}


def main():
    booksim = os.environ.get("BOOKSIM")
    if not booksim or not os.access(booksim, os.X_OK):
        sys.exit("set BOOKSIM to BookSim2's built binary (booksim2/src/booksim)")
    names = sys.argv[1:]
    spec = json.load(open(os.path.join(HERE, "exact.json")))
    path = os.path.join(HERE, "exact_results.json")
    old = {}
    if names and os.path.exists(path):
        old = {r["case"]: r for r in json.load(open(path))["results"]}
    results = []
    for case in spec["cases"]:
        if not names or case["name"] in names:
            results.append(block(booksim, case))
        elif case["name"] in old:
            results.append(old[case["name"]])
    doc = {
        "booksim_commit": spec["booksim_commit"],
        "how": "python3 record_exact.py (BookSim2 built from source with `make` in src/)",
        "results": results,
    }
    with open(path, "w") as f:
        f.write(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(results)} cases recorded in exact_results.json")


if __name__ == "__main__":
    main()
