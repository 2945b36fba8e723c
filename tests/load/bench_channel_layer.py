"""Benchmark: what a message costs the embedded channel layer with a whole school connected.

    .venv/bin/python tests/load/bench_channel_layer.py [--sockets 700 2000] [--messages 500]

Every socket of a running site waits on the layer (``receive``), and belongs to a few groups
(its table, its seat, its session). For each count of sockets, Channels' own
``InMemoryChannelLayer`` and Snapclass's ``ProcessChannelLayer`` take turns, each sending
``--messages`` group messages to tables of four and letting the receivers take them, and the
CPU time per message (``time.process_time``, this process only) is printed as JSON with the
ratio of the two, measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from channels.layers import InMemoryChannelLayer

from classroom.server.process_channel_layer import ProcessChannelLayer

TABLE_SIZE = 4
CLASS_SIZE = 30


async def _per_message_us(layer: Any, sockets: int, messages: int) -> float:
    names = [await layer.new_channel() for _ in range(sockets)]
    received = 0

    async def listen(name: str) -> None:
        nonlocal received
        while True:
            await layer.receive(name)
            received += 1

    listeners = [asyncio.create_task(listen(name)) for name in names]
    for n, name in enumerate(names):
        await layer.group_add(f"table-{n // TABLE_SIZE}", name)
        await layer.group_add(f"seat-{n}", name)
        await layer.group_add(f"session-{n // CLASS_SIZE}", name)
    await asyncio.sleep(0)  # every listener waiting
    tables = sockets // TABLE_SIZE
    started = time.process_time()
    for n in range(messages):
        await layer.group_send(f"table-{n % tables}", {"type": "table.frame", "flip": n})
        await asyncio.sleep(0)  # the table's four receivers take it
    while received < messages * TABLE_SIZE:
        await asyncio.sleep(0)
    spent = time.process_time() - started
    for listener in listeners:
        listener.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    return spent / messages * 1e6


def main(sockets_counts: list[int], messages: int, rounds: int) -> None:
    results = []
    for sockets in sockets_counts:
        timings: dict[str, list[float]] = {"in_memory": [], "process": []}
        for _round in range(rounds):  # taking turns, so the machine's load falls on both
            timings["in_memory"].append(
                asyncio.run(_per_message_us(InMemoryChannelLayer(), sockets, messages))
            )
            timings["process"].append(
                asyncio.run(_per_message_us(ProcessChannelLayer(), sockets, messages))
            )
        best = {name: min(values) for name, values in timings.items()}
        results.append(
            {
                "sockets": sockets,
                "in_memory_us_per_message": round(best["in_memory"], 1),
                "process_us_per_message": round(best["process"], 1),
                "ratio": round(best["in_memory"] / best["process"], 1),
            }
        )
    print(json.dumps({"messages": messages, "rounds": rounds, "layers": results}, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, nargs="+", default=[700, 2000])
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    main(arguments.sockets, arguments.messages, arguments.rounds)
