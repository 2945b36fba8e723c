"""Joins that arrive together are seated together, and a lone join waits for nobody."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import ValidationError

from classroom.services import join_queue
from classroom.services.seats import GuestJoin

if TYPE_CHECKING:
    from collections.abc import Sequence


class _Session:
    def __init__(self, pk: int) -> None:
        self.pk = pk


class _FakeSeats:
    """Stands in for ``seats_join``: records each batch; the first batch waits to be let go,
    so the joins that arrive meanwhile queue up behind it."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.first_started = threading.Event()
        self.let_go = threading.Event()
        self.fail_names: set[str] = set()

    def __call__(self, *, session: Any, requests: Sequence[GuestJoin]) -> list[Any]:
        names = [request.nickname for request in requests]
        self.batches.append(names)
        if len(self.batches) == 1:
            self.first_started.set()
            assert self.let_go.wait(10)
        if self.fail_names & set(names):
            raise RuntimeError("the database went away")
        return [
            ValidationError("taken") if name == "taken" else f"seat of {name} in {session.pk}"
            for name in names
        ]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> _FakeSeats:
    seats = _FakeSeats()
    monkeypatch.setattr(join_queue, "seats_join", seats)
    return seats


def _join_in_thread(session: _Session, name: str, results: dict[str, Any]) -> threading.Thread:
    def run() -> None:
        try:
            results[name] = join_queue.seat_join_queued(
                session=session,  # type: ignore[arg-type]
                request=GuestJoin(nickname=name),
            )
        except Exception as error:
            results[name] = error

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_lone_join_is_a_batch_of_one(fake: _FakeSeats) -> None:
    fake.let_go.set()
    seat = join_queue.seat_join_queued(
        session=_Session(1),  # type: ignore[arg-type]
        request=GuestJoin(nickname="Mia"),
    )
    assert seat == "seat of Mia in 1"
    assert fake.batches == [["Mia"]]


def test_joins_that_arrive_meanwhile_are_seated_in_one_batch_per_session(
    fake: _FakeSeats,
) -> None:
    results: dict[str, Any] = {}
    first = _join_in_thread(_Session(1), "Ann", results)
    assert fake.first_started.wait(10)
    others = [
        _join_in_thread(_Session(1), "Ben", results),
        _join_in_thread(_Session(2), "Cai", results),
        _join_in_thread(_Session(1), "taken", results),
        _join_in_thread(_Session(1), "Dee", results),
    ]
    while len(join_queue._queue) < len(others):
        threading.Event().wait(0.01)
    fake.let_go.set()
    for thread in [first, *others]:
        thread.join(10)
    assert fake.batches[0] == ["Ann"]
    # The four that waited: one batch for session 1 (in arrival order), one for session 2.
    assert sorted(fake.batches[1:]) == [["Ben", "taken", "Dee"], ["Cai"]]
    assert results["Ann"] == "seat of Ann in 1"
    assert results["Cai"] == "seat of Cai in 2"
    assert results["Dee"] == "seat of Dee in 1"
    assert isinstance(results["taken"], ValidationError)
    assert not join_queue._queue
    assert not join_queue._leader


def test_an_unexpected_error_fails_only_the_join_it_is_in(fake: _FakeSeats) -> None:
    results: dict[str, Any] = {}
    first = _join_in_thread(_Session(1), "Ann", results)
    assert fake.first_started.wait(10)
    fake.fail_names = {"Bad"}
    others = [_join_in_thread(_Session(1), name, results) for name in ("Ben", "Bad")]
    while len(join_queue._queue) < len(others):
        threading.Event().wait(0.01)
    fake.let_go.set()
    for thread in [first, *others]:
        thread.join(10)
    assert results["Ben"] == "seat of Ben in 1"
    assert isinstance(results["Bad"], RuntimeError)
    assert not join_queue._leader
