"""The host and the world around it: duplicate inputs, a newer owner, the owner's epoch."""

from __future__ import annotations

from games.live.host import LogEntry, StoreFenced, TableHost
from tests.games.live.test_host import SETUP, FakeSocket, MemoryStore, NoTicks, _host, _settle


class FencedStore(MemoryStore):
    """A store whose table another process has claimed (a newer epoch)."""

    async def append(self, entry: LogEntry, trials: object) -> None:
        raise StoreFenced("table 7 belongs to a newer owner")


async def test_an_input_sent_twice_is_applied_once_and_acknowledged_twice() -> None:
    store = MemoryStore()
    host = await _host(store=store)
    alice, bob = FakeSocket(0), FakeSocket(1)
    await host.join(alice)
    await host.join(bob)
    await _settle()
    for seq in (1, 2):  # the retry has its own socket seq, the same client id
        host.submit(alice, seq, {"kind": "add", "n": 2}, "page-a:1")
        await _settle()
    assert [entry.client_id for entry in store.entries] == ["page-a:1"]
    assert [frame["seq"] for frame in alice.of_type("ack")] == [1, 2]
    assert bob.of_type("state")[-1]["view"]["total"] == 2
    await host.stop()


async def test_a_host_rebuilt_from_the_log_still_knows_the_inputs_it_stored() -> None:
    log = [LogEntry(1, "act", 0, {"kind": "add", "n": 3}, 10, "page-a:7")]
    store = MemoryStore()
    host = await _host(store=store, log=log)
    alice = FakeSocket(0)
    await host.join(alice)
    host.submit(alice, 1, {"kind": "add", "n": 3}, "page-a:7")  # resent after a restart
    host.submit(alice, 2, {"kind": "add", "n": 1}, "page-a:8")
    await _settle()
    assert [entry.client_id for entry in store.entries] == ["page-a:8"]
    assert alice.of_type("state")[-1]["view"]["total"] == 4
    await host.stop()


async def test_inputs_without_a_client_id_are_never_taken_for_duplicates() -> None:
    store = MemoryStore()
    host = await _host(store=store)
    alice = FakeSocket(0)
    await host.join(alice)
    host.submit(alice, 1, {"kind": "add", "n": 1})
    host.submit(alice, 1, {"kind": "add", "n": 1})
    await _settle()
    assert len(store.entries) == 2
    await host.stop()


async def test_a_host_whose_table_has_a_newer_owner_stops_without_changing_anything() -> None:
    host = await _host(store=FencedStore())
    stopped: list[bool] = []
    host.on_stop(lambda: stopped.append(True))
    alice, bob = FakeSocket(0), FakeSocket(1)
    await host.join(alice)
    await host.join(bob)
    await _settle()
    host.submit(alice, 1, {"kind": "add", "n": 2})
    await _settle()
    assert host.fenced
    assert host.finished
    assert stopped == [True]
    assert not host.ended  # not a finished game: its tablets go and find the new owner
    assert bob.of_type("state")[-1]["view"]["total"] == 0
    assert alice.of_type("ack") == []


async def test_every_frame_carries_the_owners_epoch() -> None:
    host = TableHost(setup=SETUP, engine=NoTicks, store=MemoryStore(), epoch=5)
    host.start()
    alice = FakeSocket(0)
    await host.join(alice)
    host.submit(alice, 1, {"kind": "add", "n": 1}, "page-a:1")
    await _settle()
    assert {frame["epoch"] for frame in alice.frames} == {5}
    assert {frame["type"] for frame in alice.frames} == {"state", "ack"}
    await host.stop()


async def test_a_socket_that_left_is_not_called_back_when_the_host_stops() -> None:
    host = await _host()
    told: list[str] = []

    def stayed() -> None:
        told.append("stayed")

    def left() -> None:
        told.append("left")

    host.on_stop(stayed)
    host.on_stop(left)
    host.forget_on_stop(left)
    host.forget_on_stop(left)  # twice is harmless
    await host.stop()
    assert told == ["stayed"]
