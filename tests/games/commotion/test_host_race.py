"""Two tablets race for the same pile through a real table host: the first input wins."""

from __future__ import annotations

from games.commotion import rules
from games.commotion.config import Config
from games.live.host import TableHost, TableSetup
from tests.games.commotion.support import arranged, filler, n, pile
from tests.games.live.test_host import FakeSocket, MemoryStore, _settle


async def test_simultaneous_plays_on_one_pile_first_wins_the_other_is_too_late() -> None:
    setup = TableSetup(table_id=3, config=Config(), seats=(0, 1), seed=7)
    store = MemoryStore()
    host = TableHost(setup=setup, engine=rules, store=store)
    # Both rows hold a red 2; the centre has one START: only one of them can go there.
    host.state = arranged(
        {0: [n(0, "red", 2), *filler(0, 4)], 1: [n(1, "red", 2), *filler(1, 4)]},
        centre=[pile(0, "red", 1)],
    )
    ava, ben = FakeSocket(0), FakeSocket(1)
    host.start()
    await host.join(ava)
    await host.join(ben)
    await _settle()
    play = {"kind": "play", "source": "tableau", "card": 0, "pile": 0, "pile_size": 1,
            "rt_ms": 420, "rtt_ms": 20}  # fmt: skip
    # Both taps arrive before the host has handled either: it takes them in arrival order.
    host.submit(ben, 11, play)
    host.submit(ava, 12, play)
    await _settle()

    assert ben.of_type("ack") == [{"type": "ack", "seq": 11, "version": 1, "epoch": 0}]
    assert ava.of_type("error") == [
        {"type": "error", "code": "rejected", "message": rules.TOO_LATE, "seq": 12}
    ]
    centre = host.state.centre[0]
    assert [(card.owner, card.number) for card in centre] == [(0, None), (1, 2)]
    # Ava's red 2 is still in her row; no penalty, and a lost race is not a false alarm: her
    # right card is logged (refused, changing nothing on replay) as spotted but late.
    assert host.state.players[0].tableau[0] == n(0, "red", 2)
    assert [entry.seat for entry in store.entries] == [1, 0]
    avas = [trial.data for trial in store.trials if trial.seat == 0]
    assert [(t["outcome"], t["correct"]) for t in avas] == [("beaten", None), ("late", True)]
    # Both tablets see Ben's card on the pile in the next frame.
    for socket in (ava, ben):
        view = socket.of_type("state")[-1]["view"]
        assert view["centre"][0]["cards"] == 2
        assert view["centre"][0]["top"] == {
            "owner": 1,
            "kind": "number",
            "colour": "red",
            "number": 2,
        }
    await host.stop()
