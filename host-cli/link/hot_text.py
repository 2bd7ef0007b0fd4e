#!/usr/bin/env python3
"""Records which functions `jumpnet sim --booksim` runs and writes hot_text.ld.

usage: python3 hot_text.py [-j JOBS] [JUMPNET]   (default: the workspace's
       target/release/jumpnet; JOBS: runs at a time, default all cores)

Runs JUMPNET under valgrind's callgrind on every configuration of tests/data/booksim/configs/
at its own load and on every case of tests/data/booksim/matrix.json at its middle load (one
sample period of 300 cycles after one of warm-up: the same code as a full run, briefly), and
writes hot_text.ld beside this script: a linker script that puts the functions these runs
executed into one output section ahead of the rest of the code. host-cli/build.rs links the
`jumpnet` binary of release builds on Linux with it.

The kernel maps a program's code into its memory in 64 KiB windows around each page it
runs; code that a run needs spread over the whole binary puts nearly all of it in the
resident set, gathered it takes a quarter (docs/booksim.md §6). Names are matched without
their hashes (the `17h…E` suffix of legacy Rust symbols, the crate disambiguator of v0 ones),
so the script still applies after a rebuild or a toolchain update; a function renamed or
added since the last recording is simply placed with the rest. Running this again after
large changes to the simulator restores the layout.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "..", "tests", "data", "booksim")
SHORT = ["warmup_periods=1", "max_samples=2", "sample_period=300"]


def runs():
    """(name, configuration, overrides) of every recorded run."""
    cfgs = sorted(f for f in os.listdir(os.path.join(DATA, "configs")) if f.endswith(".cfg"))
    out = [(f"cfg-{f[:-4]}", f, []) for f in cfgs]
    matrix = json.load(open(os.path.join(DATA, "matrix.json")))
    for c in matrix["cases"]:
        if "seeds" in c:
            continue
        load = c["loads"][len(c["loads"]) // 2]
        out.append((c["name"], c["config"], c["overrides"] + [f"injection_rate={load}"]))
    return out


def executed(jumpnet, tmp, jobs):
    """How many runs executed each function (by mangled name), `jobs` runs at a time."""

    def one(run):
        name, cfg, overrides = run
        out = os.path.join(tmp, f"{name}.cg")
        cmd = ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}",
               jumpnet, "sim", "--booksim", f"configs/{cfg}", *overrides, *SHORT,
               "--json", "-q", "--threads", "1"]
        subprocess.run(cmd, cwd=DATA, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=True)
        return functions(out)

    counts = collections.Counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for names in pool.map(one, runs()):
            counts.update(names)
    return counts


def functions(callgrind_out):
    """The functions named in one callgrind output."""
    names = set()
    for line in open(callgrind_out):
        m = re.match(r"c?fn=\(\d+\) (\S+)", line)
        if m:
            names.add(m.group(1))
    return names


def pattern(name):
    """A section-name glob for the function `name` without its hashes; None for symbols that
    are not Rust's (C library functions live in other objects)."""
    name = re.sub(r"'\d+$", "", name)  # callgrind's mark of a recursive call
    if name.startswith("_ZN"):
        name = re.sub(r"17h[0-9a-f]{16}E$", "17h*", name)
    elif name.startswith("_R"):
        name = re.sub(r"Cs[0-9A-Za-z]+_", "Cs*_", name)
    else:
        return None
    if any(ch in name for ch in "?[]{}();,\"' "):
        return None
    return f"*(.text.*{name})"


def write(counts):
    """Writes hot_text.ld: the functions most runs executed first, so the code every run
    needs is gathered at the front."""
    runs_of = collections.Counter()
    for name, n in counts.items():
        p = pattern(name)
        if p:
            runs_of[p] = max(runs_of[p], n)
    patterns = sorted(runs_of, key=lambda p: (-runs_of[p], p))
    with open(os.path.join(HERE, "hot_text.ld"), "w") as f:
        f.write("/* The functions `jumpnet sim --booksim` runs, ahead of the rest of the code\n")
        f.write("   (written by hot_text.py; docs/booksim.md §6). */\n")
        f.write("SECTIONS\n{\n  .text.hot :\n  {\n")
        for p in patterns:
            f.write(f"    {p}\n")
        f.write("  }\n}\nINSERT BEFORE .text;\n")
    print(f"{len(patterns)} functions in hot_text.ld")


def main():
    args = sys.argv[1:]
    jobs = os.cpu_count()
    if "-j" in args:
        i = args.index("-j")
        jobs = int(args[i + 1])
        del args[i : i + 2]
    jumpnet = os.path.abspath(args[0] if args
                              else os.path.join(ROOT, "..", "target", "release", "jumpnet"))
    with tempfile.TemporaryDirectory() as tmp:
        write(executed(jumpnet, tmp, jobs))


if __name__ == "__main__":
    main()
