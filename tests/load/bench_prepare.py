"""Benchmark set-up, run inside the benchmark's own database: a started auto-flip session.

Prints one JSON object: the session's id and code, every seat's token by table, and the
teacher's session cookie (a benchmark pauses and resumes the session as the console does).
"""

from __future__ import annotations

import json
import os
import sys

import django


def main(students: int, table_size: int, flip_every_s: float) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "classroom.settings")
    django.setup()
    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.services.seats import seat_join_guest
    from classroom.services.sessions import session_create, session_start

    teacher = User.objects.create_user(username="bench-teacher", password="bench-password-123")
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=None,
        players_per_table=table_size,
        settings={
            "flip_pacing": "auto",
            "auto_flip_s": flip_every_s,
            "response_window_s": min(2.0, flip_every_s - 0.5),
            "points_target": 100,
        },
    )
    seats = [seat_join_guest(session=session, nickname=f"S{n:03d}") for n in range(students)]
    session_start(session=session)
    for seat in seats:
        seat.refresh_from_db()
    browser = Client()
    browser.force_login(teacher)
    print(
        json.dumps(
            {
                "session": session.pk,
                "code": session.code,
                "teacher_cookie": browser.cookies["sessionid"].value,
                "seats": [{"token": seat.token, "table": seat.table_id} for seat in seats],
            }
        )
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]))
