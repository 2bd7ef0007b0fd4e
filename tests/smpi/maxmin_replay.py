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
    unfixed = set(active)
    rates = {}
    while unfixed:
        share, chan = min(
            (cap[c] / n, c)
            for c, us in users.items()
            for n in [sum(1 for f in us if f in unfixed)]
            if n
        )
        for f in [f for f in users[chan] if f in unfixed]:
            rates[f] = share
            unfixed.discard(f)
            for c in active[f]:
                cap[c] -= share
    return rates


def replay(msgs, flit_bytes, hop_cycles, first_wave):
    if first_wave:
        msgs = [m for m in msgs if m["sent"] == 0]
    by_id = {m["id"]: m for m in msgs}
    # Per rank, its deliveries in program order.
    recv_order = {}
    for m in sorted(msgs, key=lambda m: (m["recv_op"], m["id"])):
        recv_order.setdefault(m["dst"], []).append(m["id"])
    # A send waits for the sender's last receive op before it (deliveries are in order).
    waiters = {}
    pending = []  # heap of (post cycle, id)
    for m in msgs:
        before = [i for i in recv_order.get(m["src"], []) if by_id[i]["recv_op"] < m["send_op"]]
        if before and not first_wave:
            waiters.setdefault(before[-1], []).append(m["id"])
        else:
            heapq.heappush(pending, (0.0, m["id"]))
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
            for w in waiters.get(i, []):
                heapq.heappush(pending, (delivered[i], w))
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
        dt = min(remaining[i] / rates[i] for i in active)
        if pending:
            dt = min(dt, pending[0][0] - t)
        t += dt
        for i in list(active):
            remaining[i] -= rates[i] * dt
            if remaining[i] <= 1e-6:
                del active[i]
                arrived[i] = t + (by_id[i]["hops"] + 1) * hop_cycles
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
    a = ap.parse_args()
    msgs = load(a.messages)
    run = max((m["delivered"] for m in msgs if not a.first_wave or m["sent"] == 0), default=0)
    fluid = replay(msgs, a.flit_bytes, a.hop_cycles, a.first_wave)
    print(f"messages {len(msgs)}  run makespan {run} cycles  max-min replay {fluid:.0f} cycles")


if __name__ == "__main__":
    main()
