"""Benchmark: the CPU of reading one tablet frame, autobahn's way (Daphne's protocol) against
``classroom/server/lean_frames.py``'s.

    .venv/bin/python tests/load/bench_frame_reads.py [--frames 20000]

Each way reads the same frames, one TCP read each, as a table socket gets them: a probe's
answer (``{"type":"ping","seq":...}``) and a tap. The two ways take turns in blocks of 1,000,
so both see the same machine. Printed as JSON: the median CPU time (``time.process_time``)
per frame of each way over the blocks, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

BLOCK = 1000
FRAMES = (
    b'{"type":"ping","seq":1073741830}',
    b'{"type":"act","seq":41,"cid":"c-41","action":{"type":"slap","place":"left"}}',
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20_000, help="frames read each way")
    args = parser.parse_args()
    from daphne import ws_protocol

    from classroom.server.lean_frames import LeanWebSocketProtocol
    from tests.daphne_protocols import client_frame, protocol_opened

    ways = {"autobahn": ws_protocol.WebSocketProtocol, "lean": LeanWebSocketProtocol}
    protocols = {name: protocol_opened(protocol_class)[0] for name, protocol_class in ways.items()}
    frames = [client_frame(FRAMES[n % len(FRAMES)], mask=os.urandom(4)) for n in range(BLOCK)]
    per_frame: dict[str, list[float]] = {name: [] for name in ways}
    for _block in range(max(1, args.frames // BLOCK)):
        for name, protocol in protocols.items():
            protocol.application_queue.clear()
            started = time.process_time()
            for frame in frames:
                protocol.dataReceived(frame)
            per_frame[name].append((time.process_time() - started) / BLOCK)
            assert len(protocol.application_queue) == BLOCK, name
    medians = {name: statistics.median(times) * 1e6 for name, times in per_frame.items()}
    print(
        json.dumps(
            {
                "frames_each_way": len(per_frame["lean"]) * BLOCK,
                "cpu_us_per_frame": {name: round(value, 2) for name, value in medians.items()},
                "ratio_lean_to_autobahn": round(medians["lean"] / medians["autobahn"], 3),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
