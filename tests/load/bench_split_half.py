"""Benchmark: the split-half estimate a live console pays at each doubling of its session's trials.

    .venv/bin/python tests/load/bench_split_half.py [--trials-per-student 15,30,100,400,800]

A console's tiles say how many trials a figure needs (``session_minimums``), from the
split-half reliability of the game's headline and speed measures among the session's players
(``classroom.selectors.certainty``, ``PAGE_PERMUTATIONS`` splits). It is measured again each
time the session's trials double. For a class of 30 simulated Palm Strike players (seeded:
each child's own chance of a right answer and own speed), at each size the estimate of both
measures is timed ``--repeats`` times with the cache emptied before each, and the median CPU
time (``time.process_time``) is printed as JSON, with the estimates it gave.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.load.bench_tables import bench_env  # noqa: E402

CLASS_SIZE = 30


def _class_trials(rng: random.Random, trials: int) -> dict[int, list[object]]:
    from classroom.analytics.row_measures import TrialFacts

    by_seat: dict[int, list[object]] = {}
    for seat in range(CLASS_SIZE):
        right, speed = rng.uniform(0.6, 0.95), rng.uniform(450, 900)
        rows = []
        for _ in range(trials):
            target = rng.random() < 0.4
            correct = rng.random() < right
            responded = target == correct
            rt = round(rng.lognormvariate(0, 0.25) * speed) if responded else None
            rows.append(TrialFacts(target, responded, rng.random() < 0.5, rt, correct, True))
        by_seat[seat] = rows
    return by_seat


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials-per-student", default="15,30,100,400,800")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="snapclass-split-half-") as workdir:
        os.environ.update(bench_env(Path(workdir) / "bench.sqlite3"))
        import django

        django.setup()
        from django.core.cache import cache

        from classroom.gamesite import game_site
        from classroom.models import GameSession
        from classroom.selectors import certainty

        site = game_site("palm_strike")
        session = GameSession(pk=1, game="palm_strike", status=GameSession.Status.RUNNING)
        results = []
        for trials in (int(size) for size in args.trials_per_student.split(",")):
            by_seat = _class_trials(random.Random(trials), trials)
            times = []
            for _ in range(args.repeats):
                cache.clear()
                began = time.process_time()
                estimates = [
                    certainty._reliability(
                        session, measure, by_seat, speed=measure is site.speed_measure
                    )
                    for measure in (site.headline_measure, site.speed_measure)
                ]
                times.append(time.process_time() - began)
            results.append(
                {
                    "trials_per_student": trials,
                    "cpu_ms_median": round(1000 * statistics.median(times), 1),
                    "estimates": [None if e is None else round(e.estimate, 3) for e in estimates],
                }
            )
    print(json.dumps({"students": CLASS_SIZE, "repeats": args.repeats, "sizes": results}))


if __name__ == "__main__":
    main()
