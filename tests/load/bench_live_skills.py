"""Benchmark: the console's live skills at a long lesson's trials.

    .venv/bin/python tests/load/bench_live_skills.py [--trials-per-student 50,200] [--repeats 20]

The console draws its live skills (``session_dashboard``: every student's measures, rolling
median RT and its trend) every couple of seconds while a class plays, and they read every
trial of the session, so their cost grows through the lesson. A class of 30 is seeded on a
fresh SQLite file by the Palm Strike demo seed (``tests.seeding``), one session per size; each
session's live skills are read ``--repeats`` times and the median CPU time
(``time.process_time``) is printed as JSON per size: ``live_skills_cpu_ms_median`` as a page
load reads them (the whole session), ``kept_between_draws_cpu_ms_median`` as a console's
socket does (``LiveSkills``: only the trials since its last draw, here ``--new-trials``
copies of earlier ones added before each draw, about two seconds of a class at play). The
two take turns, so other work on the machine weighs on both alike.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.load.bench_tables import bench_env  # noqa: E402

CLASS_SIZE = 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials-per-student", default="50,200")
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--new-trials", type=int, default=30)
    args = parser.parse_args()
    sizes = [int(size) for size in args.trials_per_student.split(",")]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="snapclass-skills-") as workdir:
        os.environ.update(bench_env(Path(workdir) / "bench.sqlite3"))
        import django
        from django.core.management import call_command

        django.setup()
        from django.contrib.auth.models import User

        from classroom.models import GameSession, Trial
        from classroom.selectors.analytics import session_dashboard
        from classroom.selectors.live_skills import LiveSkills
        from tests.seeding.palm_strike import GAME, demo_class_seed

        call_command("migrate", verbosity=0, interactive=False)
        results = []
        for number, size in enumerate(sizes):
            teacher = User.objects.create_user(f"bench-{number}", password="x" * 16)
            school_class = demo_class_seed(
                teacher=teacher,
                students=CLASS_SIZE,
                sessions=1,
                trials_per_session=size,
                seed=number,
            )
            session = GameSession.objects.get(school_class=school_class)
            session_dashboard(session=session)  # warm
            skills = LiveSkills()
            skills.dashboard(session=session)
            rows = list(Trial.objects.filter(session=session).order_by("pk"))
            times, kept_times = [], []
            for repeat in range(args.repeats):
                started = time.process_time()
                session_dashboard(session=session)
                times.append((time.process_time() - started) * 1000)
                copies = rows[repeat * args.new_trials : (repeat + 1) * args.new_trials]
                for row in copies:
                    row.pk = None
                Trial.objects.bulk_create(copies)
                started = time.process_time()
                skills.dashboard(session=session)
                kept_times.append((time.process_time() - started) * 1000)
            assert skills.full_reads == 1, "every draw after the first reads only new trials"
            results.append(
                {
                    "game": GAME,
                    "students": CLASS_SIZE,
                    "trials_per_student": size,
                    "trials": Trial.objects.filter(session=session).count(),
                    "live_skills_cpu_ms_median": round(statistics.median(times), 1),
                    "new_trials_per_draw": args.new_trials,
                    "kept_between_draws_cpu_ms_median": round(statistics.median(kept_times), 1),
                }
            )
    print(
        json.dumps(
            {
                "repeats": args.repeats,
                "load_average": [load_before, os.getloadavg()[0]],
                "sessions": results,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
