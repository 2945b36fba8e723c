"""A play's trial (games/commotion/trials.py): spotted, late or wrong, and where it went."""

from __future__ import annotations

from games.commotion import trials as triallib
from games.commotion.bots import BOT_LEVELS
from games.commotion.cards import card_to_dict
from tests.games.commotion.support import GO, arranged, n, pile, start


def test_a_human_play_is_a_trial_with_where_the_card_went() -> None:
    state = arranged({0: [n(0, "red", 2)], 1: []}, centre=[pile(1, "red", 1)])
    play = triallib.Play(0, ("tableau", n(0, "red", 2)), rt_ms=400, rtt_ms=30)
    hit = triallib.hit(state, play, GO + 500, pile=0, top=start(1))
    assert hit is not None
    assert (hit.seat, hit.data["outcome"], hit.data["rt_ms"]) == (0, "spotted", 400)
    assert (hit.data["pile"], hit.data["onto"]) == (0, card_to_dict(start(1)))
    assert state.opportunities[0] == []

    wrong = triallib.false_alarm(state, play, pile=1)
    assert wrong is not None
    assert (wrong.data["outcome"], wrong.data["pile"], wrong.data["onto"]) == ("wrong", 1, None)


def test_a_bot_play_is_no_trial() -> None:
    state = arranged(
        {0: [], 1: [n(1, "red", 2)]}, centre=[pile(0, "red", 1)], bots={1: BOT_LEVELS["steady"]}
    )
    play = triallib.Play(1, ("tableau", n(1, "red", 2)), rt_ms=400)
    assert triallib.hit(state, play, GO + 500, pile=0, top=start(0)) is None
    assert triallib.false_alarm(state, play, pile=1) is None
    assert triallib.late(state, play, pile=0, top=start(0)) is None
