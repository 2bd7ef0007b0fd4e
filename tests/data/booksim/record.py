#!/usr/bin/env python3
"""Runs BookSim2 on jumpnet's comparison matrix and records what it printed.

usage: BOOKSIM=/path/to/booksim2/src/booksim python3 record.py [-j JOBS] [CASE...]

BookSim2 is built from source outside this repository (github booksim/booksim2 at the
commit named in matrix.json: `cd src && make`, with Debian's flex and bison). For every
case of matrix.json and every load, this runs

    $BOOKSIM configs/<config> <overrides...> injection_rate=<load>

from this directory and keeps, in results.json, the command and the averages BookSim2
printed in its final "Overall Traffic Statistics" block, with the batch durations of
`sim_type = batch` runs (with CASE names, only those
cases are run again and replaced in results.json), or that the run saturated
("exceeded ... cycles" / "unstable"). A case with `"class_rates"` gives each traffic class
its own rate, `load` times the class's factor. A case with `"seeds": N` runs every load N times,
with `seed=0` … `seed=N-1` appended, and records each run with its seed (the test
compares the means). host-cli/tests/booksim_matrix.rs compares
`jumpnet sim --booksim` with these numbers (docs/booksim.md §5).
"""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# With `classes > 1` BookSim2 prints one "====== Traffic class C ======" section per class:
# the top-level fields of a record are class 0's (as before, so a one-class record reads
# the same), and "classes" lists every class's fields in class order.

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = {
    "packet_latency": "Packet latency average",
    "network_latency": "Network latency average",
    "flit_latency": "Flit latency average",
    "accepted_flits": "Accepted flit rate average",
    "injected_flits": "Injected flit rate average",
    "hops": "Hops average",
    "fragmentation": "Fragmentation average",
}


def rate_word(case, load):
    """The injection_rate word of `load`: with `"class_rates": [r0, r1, ...]`, one rate per
    traffic class, `load * r`, as a BookSim2 list (a list wins over a file's plain number)."""
    rates = case.get("class_rates")
    if not rates:
        return f"injection_rate={load}"
    return "injection_rate={" + ",".join(f"{load * r:.6g}" for r in rates) + "}"


def run(booksim, case, load, seed=None):
    cmd = [booksim, f"configs/{case['config']}", *case["overrides"], rate_word(case, load)]
    if seed is not None:
        cmd.append(f"seed={seed}")
    out = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True, timeout=3600).stdout
    rec = {"case": case["name"], "load": load, "command": " ".join(["booksim", *cmd[1:]])}
    if seed is not None:
        rec["seed"] = seed
    overall = out.split("====== Overall Traffic Statistics ======")
    if len(overall) < 2 or "exceeded" in out or "unstable" in out.lower():
        rec["saturated"] = True
        return rec
    rec["saturated"] = False
    sections = re.split(r"====== Traffic class \d+ ======", overall[1])[1:]
    fields = [
        {
            key: (float(m.group(1)) if m else None)
            for key, label in FIELDS.items()
            for m in [re.search(re.escape(label) + r" = ([0-9.eE+-]+)", sec)]
        }
        for sec in sections or [overall[1]]
    ]
    rec.update(fields[0])
    if len(fields) > 1:
        rec["classes"] = fields
    m = re.search(r"Time taken is (\d+) cycles", out)
    rec["cycles"] = int(m.group(1)) if m else None
    # sim_type = batch: minimum, mean and maximum batch duration, in this order (BookSim2
    # labels all three "Overall min batch duration").
    batch = re.findall(r"Overall min batch duration = ([0-9.eE+-]+)", overall[1])
    if len(batch) == 3:
        rec["batch_min"], rec["batch_avg"], rec["batch_max"] = map(float, batch)
    return rec


def main():
    booksim = os.environ.get("BOOKSIM")
    if not booksim or not os.access(booksim, os.X_OK):
        sys.exit("set BOOKSIM to BookSim2's built binary (booksim2/src/booksim)")
    args = sys.argv[1:]
    jobs = os.cpu_count()
    if "-j" in args:
        i = args.index("-j")
        jobs = int(args[i + 1])
        del args[i : i + 2]
    matrix = json.load(open(os.path.join(HERE, "matrix.json")))
    cases = [c for c in matrix["cases"] if not args or c["name"] in args]
    work = [
        (c, l, s)
        for c in cases
        for l in c["loads"]
        for s in (range(c["seeds"]) if "seeds" in c else [None])
    ]
    with ThreadPoolExecutor(jobs) as pool:
        results = list(pool.map(lambda cl: run(booksim, *cl), work))
    if args:
        old = json.load(open(os.path.join(HERE, "results.json")))["results"]
        results = [r for r in old if r["case"] not in args] + results
    doc = {
        "booksim_commit": matrix["booksim_commit"],
        "how": "python3 record.py (BookSim2 built from source with `make` in src/)",
        "results": results,
    }
    with open(os.path.join(HERE, "results.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{len(results)} runs recorded in results.json")


if __name__ == "__main__":
    main()
