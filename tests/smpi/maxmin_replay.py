#!/usr/bin/env python3
"""Replays a jumpnet collective run on a max-min fair flow model (docs/smpi.md §4).

Reads the CSV of `jumpnet sim --collective ... --messages FILE` and times the same messages,
on the same routes, the way SimGrid's flow model shares links: every directed channel (the
terminal channels and each `switch:port` hop) carries one flit per cycle, the messages in
flight share it max-min fairly (progressive filling), and a message reaches its receiver
`(hops + 1) * hop_cycles` cycles after its last byte has left.

Each rank runs its program in order, as jumpnet's NICs do: a send leaves once the rank has
delivered every message its earlier receive ops take (`send_op`, `recv_op` in the CSV), and
a rank delivers its messages in program order, each no earlier than it arrives. Usage:

    maxmin_replay.py MESSAGES.csv --flit-bytes 4096 [--hop-cycles 1] [--first-wave]
                     [--wait-sends]

`--wait-sends` also holds each send until the rank's previous send has left its NIC, as a
blocking `MPI_Sendrecv` does (jumpnet's NICs wait so only with `--blocking-sends`, part
of `--nic mpi`; replay a log of a run without it to see what the blocking changes). It models
programs with one send per step (recursive doubling, Bruck); a step of several `MPI_Isend`s
completed by one `MPI_Waitall` (binomial broadcast) would need the step boundaries.

`--first-wave` times only the messages sent at cycle 0 (no dependencies): the contention of
one step on its own. Prints the makespan in cycles beside the run's.
"""

import argparse
import csv
import heapq
import sys


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    msgs = []
    for i, r in enumerate(rows):
        chans = ["in" + r["src_terminal"]] + r["route"].split() + ["out" + r["dst_terminal"]]
        msgs.append({
            "id": i,
            "src": int(r["src_rank"]),
            "dst": int(r["dst_rank"]),
            "bytes": int(r["bytes"]),
            "hops": int(r["hops"]),
            "send_op": int(r["send_op"]),
            "recv_op": int(r["recv_op"]),
            "sent": int(r["sent"]),
            "delivered": int(r["delivered"]),
            "chans": chans,
        })
    return msgs


def max_min_rates(active):
    """Progressive filling: {id: rate} for the flows {id: channels}."""
    users = {}
    for f, chans in active.items():
        for c in chans:
            users.setdefault(c, []).append(f)
    cap = {c: 1.0 for c in users}
    count = {c: len(us) for c, us in users.items()}
    rates = {}
    while count:
        chan = min(count, key=lambda c: cap[c] / count[c])
        share = max(cap[chan], 0.0) / count[chan]
        for f in users[chan]:
            if f in rates:
                continue
            rates[f] = share
            for c in active[f]:
                cap[c] -= share
                count[c] -= 1
                if count[c] == 0:
                    del count[c]
    return rates


def replay(msgs, flit_bytes, hop_cycles, first_wave, wait_sends):
    if first_wave:
        msgs = [m for m in msgs if m["sent"] == 0]
    by_id = {m["id"]: m for m in msgs}
    # Per rank, its deliveries in program order.
    recv_order = {}
    for m in sorted(msgs, key=lambda m: (m["recv_op"], m["id"])):
        recv_order.setdefault(m["dst"], []).append(m["id"])
    # A send waits for the sender's last receive op before it (deliveries are in order)
    # and, with `wait_sends`, for its previous send to leave: `needs` counts what is missing,
    # `ready` is the latest cycle met so far.
    waiters = {}
    needs, ready = {}, {}
    pending = []  # heap of (post cycle, id)
    sends_of = {}
    for m in sorted(msgs, key=lambda m: m["send_op"]):
        sends_of.setdefault(m["src"], []).append(m["id"])
    for m in msgs:
        i = m["id"]
        needs[i], ready[i] = 0, 0.0
        if first_wave:
            continue
        before = [j for j in recv_order.get(m["src"], []) if by_id[j]["recv_op"] < m["send_op"]]
        if before:
            waiters.setdefault(("delivered", before[-1]), []).append(i)
            needs[i] += 1
        earlier = [j for j in sends_of[m["src"]] if by_id[j]["send_op"] < m["send_op"]]
        if wait_sends and earlier:
            waiters.setdefault(("left", earlier[-1]), []).append(i)
            needs[i] += 1
    for i, n in needs.items():
        if n == 0:
            heapq.heappush(pending, (0.0, i))

    def met(event, at):
        for w in waiters.get(event, []):
            needs[w] -= 1
            ready[w] = max(ready[w], at)
            if needs[w] == 0:
                heapq.heappush(pending, (ready[w], w))

    arrived, delivered = {}, {}
    next_recv = {r: 0 for r in recv_order}
    remaining = {m["id"]: m["bytes"] / flit_bytes for m in msgs}
    active = {}

    def deliver_at(r):
        order = recv_order[r]
        while next_recv[r] < len(order) and order[next_recv[r]] in arrived:
            k = next_recv[r]
            prev = delivered[order[k - 1]] if k else 0.0
            i = order[k]
            delivered[i] = max(arrived[i], prev)
            met(("delivered", i), delivered[i])
            next_recv[r] = k + 1

    t = 0.0
    while pending or active:
        while pending and pending[0][0] <= t + 1e-9:
            _, i = heapq.heappop(pending)
            active[i] = by_id[i]["chans"]
        if not active:
            t = pending[0][0]
            continue
        rates = max_min_rates(active)
        dt = min((remaining[i] / rates[i] for i in active if rates[i] > 0), default=1.0)
        if pending:
            dt = min(dt, pending[0][0] - t)
        t += dt
        for i in list(active):
            remaining[i] -= rates[i] * dt
            if remaining[i] <= 1e-6:
                del active[i]
                arrived[i] = t + (by_id[i]["hops"] + 1) * hop_cycles
                met(("left", i), t)
                deliver_at(by_id[i]["dst"])
    if len(delivered) < len(msgs):
        sys.exit("replay stuck: a rank waits for a message that is never sent")
    return max(delivered.values(), default=0.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("messages")
    ap.add_argument("--flit-bytes", type=float, required=True)
    ap.add_argument("--hop-cycles", type=float, default=1.0)
    ap.add_argument("--first-wave", action="store_true")
    ap.add_argument("--wait-sends", action="store_true")
    a = ap.parse_args()
    msgs = load(a.messages)
    run = max((m["delivered"] for m in msgs if not a.first_wave or m["sent"] == 0), default=0)
    fluid = replay(msgs, a.flit_bytes, a.hop_cycles, a.first_wave, a.wait_sends)
    print(f"messages {len(msgs)}  run makespan {run} cycles  max-min replay {fluid:.0f} cycles")


if __name__ == "__main__":
    main()
