"""Known truth: scripted players of known skill play through the real table host; the report's
measures (the selectors and each game's own measures in its site module) recover that skill.

Each scripted tablet reacts to the frames the host sends it: it sees the stimulus, decides
with its own probability whether to respond, waits its reaction time (drawn from a known
distribution) on virtual time, and sends the response with that RT, as a tablet would. The
trials the host records go into the database the way the live log writer stores them, and
the session report is read back.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.analytics.decision_time import simple_rt_median
from classroom.analytics.validity import ANTICIPATIONS, AT_CHANCE
from classroom.exports.summary_rows import session_summary_rows
from classroom.gamesite import game_site
from classroom.models import Trial
from classroom.people.seat_cookies import seat_cookie_name
from classroom.selectors import analytics
from classroom.selectors.run_validity import session_run_validity
from games.live.host import TableHost, TableSetup
from games.registry import game_get
from tests.classroom.trial_rows import played_session
from tests.games.live.virtual_time import run_virtual

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from classroom.models import GameSession, SchoolClass, Seat
    from games.engine.contract import Trial as EngineTrial
    from tests.games.live.virtual_time import VirtualTimeLoop

# Hundreds of simulated games (about a minute of CPU): `make test` runs them, the quick
# `make check` leaves them out with the other long runs.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@dataclass(frozen=True)
class Skill:
    """A scripted child: how often they respond when they should and when they should not,
    and their reaction times (normal, in ms)."""

    p_respond_signal: float
    p_respond_noise: float
    rt_mean_ms: float
    rt_sd_ms: float
    # The quickest RT they draw (an anticipator taps before anyone could see the card).
    rt_floor_ms: float = 250.0


class Store:
    def __init__(self, offset_ms: int = 0) -> None:
        self.trials: list[EngineTrial] = []
        # When each trial was written (game time plus ``offset_ms``: tables one after another).
        self.times: list[int] = []
        self.offset_ms = offset_ms

    async def append(self, entry: Any, trials: Sequence[EngineTrial]) -> None:
        self.trials.extend(trials)
        self.times.extend([self.offset_ms + entry.now_ms] * len(trials))

    async def clock_save(self, mark: Any) -> None:
        pass


class ScriptedTablet:
    """One seat's tablet: ``decide`` looks at each frame and may answer after a delay."""

    def __init__(
        self,
        seat: int,
        skill: Skill,
        rng: random.Random,
        decide: Callable[[ScriptedTablet, dict[str, Any]], None],
    ) -> None:
        self.seat: int | None = seat
        self.index = seat
        self.skill = skill
        self.rng = rng
        self.decide = decide
        self.host: TableHost | None = None
        self.seen: set[Any] = set()
        self.seq = 0
        self.tasks: list[asyncio.Task[None]] = []
        # Waiting to answer, or for the host to take the answer in (its ack or error).
        self.pending = False

    async def deliver(self, frame: str) -> None:
        message = json.loads(frame)
        if message["type"] in {"ack", "error"} and message.get("seq") == self.seq:
            self.pending = False
        if message["type"] == "state":
            self.decide(self, message["view"])

    def rt(self) -> int:
        # Clipped to what a child can do and the window allows.
        return round(
            min(
                2000.0,
                max(
                    self.skill.rt_floor_ms,
                    self.rng.gauss(self.skill.rt_mean_ms, self.skill.rt_sd_ms),
                ),
            )
        )

    def answer_after(self, rt_ms: int, action: Callable[[], dict[str, Any] | None]) -> None:
        async def later() -> None:
            await asyncio.sleep(rt_ms / 1000)
            made = action()
            if made is None or self.host is None:
                self.pending = False
                return
            self.seq += 1
            self.host.submit(self, self.seq, {**made, "rt_ms": rt_ms, "rtt_ms": 0})

        self.tasks.append(asyncio.get_running_loop().create_task(later()))


def _play(
    game: str,
    settings: dict[str, Any],
    skills: Sequence[Skill],
    decide: Callable[[ScriptedTablet, dict[str, Any]], None],
    *,
    tables: int,
    max_ms: int,
    bots: Mapping[int, Any] | None = None,
    times: list[int] | None = None,
) -> list[EngineTrial]:
    """Play ``tables`` games one after another (fresh seeds), scripted seats 0…n-1, then
    ``bots`` (seat → the engine's bot skill). ``times`` gets when each trial was written
    (virtual ms, each table after the last)."""
    spec = game_get(game)
    assert spec is not None

    async def main(loop: VirtualTimeLoop) -> list[EngineTrial]:
        trials: list[EngineTrial] = []
        for number in range(tables):
            store = Store(offset_ms=number * (max_ms + 60_000))
            seats = tuple(range(len(skills) + len(bots or {})))
            host = TableHost(
                setup=TableSetup(
                    table_id=number + 1,
                    config=spec.config(settings),
                    seats=seats,
                    seed=number,
                    bots=bots or {},
                ),
                engine=spec.engine(),
                store=store,
                wall=loop.ms,
                unix=lambda: 1_764_000_000_000 + loop.ms(),
            )
            tablets = [
                ScriptedTablet(seat, skill, random.Random(number * 100 + seat), decide)
                for seat, skill in zip(seats, skills, strict=False)
            ]
            host.start()
            for tablet in tablets:
                tablet.host = host
                await host.join(tablet)
            start = loop.ms()
            while loop.ms() - start < max_ms and not _over(host, spec.slug):
                await asyncio.sleep(0.5)
            await host.stop()
            for tablet in tablets:
                for task in tablet.tasks:
                    task.cancel()
            trials += store.trials
            if times is not None:
                times.extend(store.times)
        return trials

    return run_virtual(main)


def _over(host: TableHost, game: str) -> bool:
    return host.engine.view(host.state, None).get("phase") == "game_over"


def _stored(
    session: GameSession,
    seats: Sequence[Seat],
    trials: Sequence[EngineTrial],
    times: Sequence[int] | None = None,
) -> None:
    """The trials as the log writer stores them (``classroom.services.live_tables``), each
    written ``times`` ms after the session began when given."""
    for number, trial in enumerate(trials, start=1):
        data = dict(trial.data)
        seat = seats[trial.seat]
        assert seat.table is not None
        Trial.objects.create(
            session=session,
            table=seat.table,
            seat=seat,
            student=seat.student,
            log_seq=number,
            game=session.game,
            kind=trial.kind,
            level=str(data.get("level", "")),
            target=data.get("target"),
            responded=data.get("responded"),
            congruent=data.get("congruent"),
            rt_ms=data.get("rt_ms"),
            correct=data.get("correct"),
            plausible=bool(data.get("plausible", True)),
            data=data,
        )
    if times is not None:
        began = timezone.now()
        rows = list(Trial.objects.filter(session=session).order_by("log_seq"))
        for row, at_ms in zip(rows, times, strict=True):
            row.created_at = began + timedelta(milliseconds=at_ms)
        Trial.objects.bulk_update(rows, ["created_at"], batch_size=1000)


def _report(
    session: GameSession, school_class: SchoolClass, game: str, trials: Sequence[EngineTrial]
) -> dict[str, dict[str, float | int | None]]:
    """Each child's measures as the report shows them, by name and measure key."""
    students = list(school_class.students.order_by("display_name"))[:2]
    seat_of = played_session(session=session, students=students, game=game)
    seats = [seat_of[student.pk] for student in students]
    session.refresh_from_db()
    _stored(session, seats, trials)
    site = game_site(game)
    return {
        row.seat.name: {measure.key: measure.value(row.overall) for measure in site.measures}
        for row in analytics.session_report(session=session)
    }


def _rt_draws(skill: Skill) -> float:
    """The median of the clipped RT distribution (the clip is far in the tails here)."""
    rng = random.Random(0)
    return statistics.median(
        min(2000.0, max(250.0, rng.gauss(skill.rt_mean_ms, skill.rt_sd_ms))) for _ in range(20_000)
    )


# --------------------------------------------------------------------------------------------
# Palm Strike: every flip a yes/no decision


def _palm_decide(tablet: ScriptedTablet, view: dict[str, Any]) -> None:
    flip = view.get("flip")
    if view.get("phase") != "open" or flip in tablet.seen or tablet.host is None:
        return
    tablet.seen.add(flip)
    from games.palm_strike.trials import flip_matches_for  # the truth the tablet perceives

    state = tablet.host.state
    assert state.current is not None
    match = flip_matches_for(state, state.current, tablet.index)
    p = tablet.skill.p_respond_signal if match else tablet.skill.p_respond_noise
    if tablet.rng.random() < p:
        tablet.answer_after(tablet.rt(), lambda: {"kind": "slap", "flip": flip})
        tablet.pending = False  # a slap never waits for another


TABLES_RIFF = 13
AVA = Skill(p_respond_signal=0.9, p_respond_noise=0.1, rt_mean_ms=600, rt_sd_ms=80)
BEN = Skill(p_respond_signal=0.7, p_respond_noise=0.3, rt_mean_ms=800, rt_sd_ms=120)


def test_palm_strike_measures_recover_the_players_skill(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    settings = {"flip_pacing": "auto", "auto_flip_s": 3.0, "response_window_s": 2.5}
    trials = _play("palm_strike", settings, [AVA, BEN], _palm_decide, tables=120, max_ms=600_000)
    report = _report(class_session, school_class, "palm_strike", trials)
    for name, skill in (("Ava", AVA), ("Ben", BEN)):
        m = report[name]
        signal = int(m["hits"] or 0) + int(m["misses"] or 0)
        noise = int(m["false_alarms"] or 0) + int(m["correct_rejections"] or 0)
        assert signal >= 150
        assert noise >= 150
        assert int(m["hits"] or 0) / signal == pytest.approx(skill.p_respond_signal, abs=0.05)
        assert int(m["false_alarms"] or 0) / noise == pytest.approx(skill.p_respond_noise, abs=0.05)
        median = m["median_rt"]
        assert median is not None
        assert median == pytest.approx(_rt_draws(skill), rel=0.05)
        # d' of the true rates, within what the sample allows.
        truth = statistics.NormalDist().inv_cdf(
            skill.p_respond_signal
        ) - statistics.NormalDist().inv_cdf(skill.p_respond_noise)
        assert m["dprime"] == pytest.approx(truth, abs=0.3)


# --------------------------------------------------------------------------------------------
# Commotion: play opportunities


@dataclass(frozen=True)
class Player(Skill):
    # Before this share of its plays the child first taps a card onto a pile it does not fit.
    p_wrong_first: float = 0.0


def _commotion_decide(tablet: ScriptedTablet, view: dict[str, Any]) -> None:
    from games.commotion.piles import can_play, piles_for
    from games.commotion.tableau import can_turn, visible_cards
    from games.commotion.trials import playable_now

    host = tablet.host
    if host is None or host.state.phase != "playing":
        tablet.seen = set()
        return
    state = host.state
    now = playable_now(state, tablet.index)
    # An opportunity that closed and opens again is a new one (as the engine counts it).
    tablet.seen &= set(now)
    if tablet.pending:
        return
    skill = tablet.skill
    assert isinstance(skill, Player)
    for key in now:
        if key in tablet.seen:
            continue
        tablet.seen.add(key)
        if tablet.rng.random() >= skill.p_respond_signal:
            continue  # not spotted: it stays open until it passes
        source, card = key
        wrong_first = tablet.rng.random() < skill.p_wrong_first

        def play(source: str = source, card: Any = card, wrong_first: bool = wrong_first) -> Any:
            player = host.state.players[tablet.index]
            where = [
                (s, index) for s, index, c in visible_cards(player) if (s, c) == (source, card)
            ]
            piles = piles_for(card, host.state.centre)
            if not where or not piles:
                return None
            if wrong_first:
                misfits = [
                    (s, index, c, p)
                    for s, index, c in visible_cards(player)
                    for p, pile in enumerate(host.state.centre)
                    if pile and not can_play(c, pile)
                ]
                if misfits:
                    s, index, _c, p = tablet.rng.choice(misfits)
                    tablet.seq += 1
                    host.submit(
                        tablet,
                        tablet.seq,
                        {"kind": "play", "source": s, "card": index, "pile": p,
                         "pile_size": len(host.state.centre[p]), "rt_ms": 400, "rtt_ms": 0},
                    )  # fmt: skip
            pile = piles[0]
            return {
                "kind": "play",
                "source": where[0][0],
                "card": where[0][1],
                "pile": pile,
                "pile_size": -1 if pile == -1 else len(host.state.centre[pile]),
            }

        tablet.pending = True
        tablet.answer_after(tablet.rt(), play)
        return
    if can_turn(state.players[tablet.index]):
        # Nothing spotted to play: turn the stock a little later (covering what was missed).

        def turn() -> dict[str, Any]:
            return {"kind": "turn"}

        tablet.pending = True
        tablet.answer_after(1500, turn)


CHEN = Player(
    p_respond_signal=0.8, p_respond_noise=0, rt_mean_ms=900, rt_sd_ms=150, p_wrong_first=0.25
)
IDLE = Player(p_respond_signal=0.0, p_respond_noise=0, rt_mean_ms=900, rt_sd_ms=150)


def test_commotion_measures_recover_the_players_skill(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    trials = _play("commotion", {}, [CHEN, IDLE], _commotion_decide, tables=11, max_ms=900_000)
    report = _report(class_session, school_class, "commotion", trials)
    # Ava (seat 0) plays as CHEN; Ben (seat 1) never plays.
    m = report["Ava"]
    assert int(m["spotted"] or 0) + int(m["missed"] or 0) >= 150
    assert m["spotting_rate"] == pytest.approx(CHEN.p_respond_signal, abs=0.05)
    # One wrong tap before a quarter of the plays: wrong / (right + wrong) = 0.25 / 1.25.
    assert m["wrong_play_rate"] == pytest.approx(0.25 / 1.25, abs=0.05)
    assert m["time_to_play"] == pytest.approx(_rt_draws(CHEN), rel=0.05)
    assert "dprime" not in m
    idle = report["Ben"]
    assert idle["spotting_rate"] == 0
    assert idle["wrong_play_rate"] is None


# --------------------------------------------------------------------------------------------
# Riff Raff: catching falling cargo


def _riff_decide(tablet: ScriptedTablet, view: dict[str, Any]) -> None:
    """Plays its part of every phase at once (a card, ties, a declaration, a drop at the edge
    of the zone, where cargo falls more often) and tries to catch each piece that falls in
    its turn with its own probability, after its reaction time."""
    me, phase, host = tablet.index, view["phase"], tablet.host
    if host is None:
        return
    if phase == "catching" and view["active"] == me:
        for falling in view["catchable"]:
            # A piece not caught goes back to a supply and may fall again: a new chance.
            piece, chance = falling["piece"], (falling["piece"], falling["left_ms"])
            if chance in tablet.seen:
                continue
            tablet.seen.add(chance)
            if tablet.rng.random() < tablet.skill.p_respond_signal:
                tablet.answer_after(
                    tablet.rt(), lambda piece=piece: {"kind": "catch", "piece": piece}
                )
        tablet.pending = False  # catching never waits for another answer
        return
    if tablet.pending:
        return
    action: dict[str, Any] | None = None
    if phase == "choosing" and not view["chosen"][str(me)]:
        action = {"kind": "choose_card", "card": tablet.rng.choice(view["cards_left"])}
    elif phase == "captain_tie" and view["tie_chooser"] == me:
        action = {"kind": "pick_captain", "seat": tablet.rng.choice(view["tied"])}
    elif phase == "order_tie" and view["captain"] == me:
        action = {"kind": "order", "seats": list(view["tied"])}
    elif phase == "declaring" and view["active"] == me:
        action = {"kind": "declare", "pieces": 2}
    elif phase == "placing" and view["active"] == me:
        zone = view["drop_zone"]
        mine = next(p for p in view["players"] if p["seat"] == me)
        x = zone["x_max"] if tablet.rng.random() < 0.5 else zone["x_min"]
        angle = tablet.rng.uniform(-0.6, 0.6)
        action = {"kind": "drop", "piece": mine["supply"][0]["id"], "x": x, "angle": angle}
    if action is None:
        return
    tablet.seq += 1
    tablet.pending = True
    host.submit(tablet, tablet.seq, action)


DANA = Skill(p_respond_signal=0.7, p_respond_noise=0, rt_mean_ms=700, rt_sd_ms=100)


def test_riff_raff_measures_recover_the_players_skill(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    from games.riff_raff.bots import BOT_LEVELS

    settings = {"wave_strength": 1.0, "catch_window_s": 2.5, "pieces_per_player": 8}
    trials = _play(
        "riff_raff",
        settings,
        [DANA],
        _riff_decide,
        tables=TABLES_RIFF,
        max_ms=1_800_000,
        bots={1: BOT_LEVELS["steady"]},
    )
    report = _report(class_session, school_class, "riff_raff", trials)
    m = report["Ava"]  # seat 0 plays as DANA; seat 1 is a bot (no trials)
    falls = int(m["falls"] or 0)
    assert falls >= 150
    assert m["catch_rate"] == pytest.approx(DANA.p_respond_signal, abs=0.05)
    assert m["catch_rt"] == pytest.approx(_rt_draws(DANA), rel=0.05)
    assert int(m["placements"] or 0) > 0
    assert "dprime" not in m


# --------------------------------------------------------------------------------------------
# Run validity: the flags catch scripted anticipators and random tappers, and spare steady
# players

# Slaps most flips, match or not, before the card could be read.
ANTICIPATOR = Skill(
    p_respond_signal=0.8, p_respond_noise=0.8, rt_mean_ms=130, rt_sd_ms=30, rt_floor_ms=60
)
# Slaps half the flips, match or not, at a child's speed.
RANDOM_TAPPER = Skill(p_respond_signal=0.5, p_respond_noise=0.5, rt_mean_ms=700, rt_sd_ms=150)


def test_validity_flags_catch_anticipators_and_random_tappers(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    settings = {"flip_pacing": "auto", "auto_flip_s": 3.0, "response_window_s": 2.5}
    players = [AVA, BEN, ANTICIPATOR, RANDOM_TAPPER]
    times: list[int] = []
    trials = _play(
        "palm_strike", settings, players, _palm_decide, tables=TABLES_VALIDITY, max_ms=600_000,
        times=times,
    )  # fmt: skip
    students = list(school_class.students.order_by("display_name"))[: len(players)]
    seat_of = played_session(session=class_session, students=students, game="palm_strike")
    seats = [seat_of[student.pk] for student in students]
    _stored(class_session, seats, trials, times)
    validity = session_run_validity(session=class_session)
    flags = {seat.name: validity[seat.pk].flags for seat in seats}
    judged = {seat.name: sum(1 for t in trials if t.seat == i) for i, seat in enumerate(seats)}
    print("figures: validity", flags, "trials", judged)
    assert min(judged.values()) >= 100
    # Ava and Ben (steady players, one of them often wrong) are valid.
    assert flags["Ava"] == ()
    assert flags["Ben"] == ()
    # Chen (seat 2) anticipates; Dara (seat 3) taps at random.
    assert ANTICIPATIONS in flags["Chen"]
    assert AT_CHANCE in flags["Dara"]
    assert ANTICIPATIONS not in flags["Dara"]


TABLES_VALIDITY = 30


# --------------------------------------------------------------------------------------------
# Decision time: a warm-up's simple RT and a game's choice RT

# Each child's simple RT (seeing and tapping on their tablet: normal, ms) and the decision they
# add in the game: Ava's choice RT is AVA's (600 ms), Ben's BEN's (800 ms).
SIMPLE_RT = {"Ava": (300.0, 40.0), "Ben": (380.0, 50.0)}
WARMUP_RUNS = 1000


def _warmup_taps(rng: random.Random, mean: float, sd: float) -> list[int | None]:
    """20 warm-up cards as a child taps them: 18 at their simple RT, one left untapped and
    one guessed before the card (both left out of the warm-up RT)."""
    taps: list[int | None] = [max(120, round(rng.gauss(mean, sd))) for _ in range(18)]
    return [*taps, None, 60]


def test_decision_time_recovers_the_set_choice_rt_less_the_simple_rt(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    settings = {"flip_pacing": "auto", "auto_flip_s": 3.0, "response_window_s": 2.5}
    trials = _play("palm_strike", settings, [AVA, BEN], _palm_decide, tables=20, max_ms=600_000)
    students = list(school_class.students.order_by("display_name"))[:2]
    seat_of = played_session(session=class_session, students=students, game="palm_strike")
    seats = [seat_of[student.pk] for student in students]
    class_session.refresh_from_db()
    _stored(class_session, seats, trials)
    rng = random.Random(46)
    for seat in seats:
        tablet = Client(HTTP_USER_AGENT="Scripted tablet")
        tablet.cookies[seat_cookie_name(class_session.code)] = seat.token
        taps = _warmup_taps(rng, *SIMPLE_RT[seat.name])
        answer = tablet.post(
            reverse("play_warmup", args=[class_session.code]),
            {
                "screen_width": "1024",
                "screen_height": "768",
                "frame_interval_ms": "16.7",
                "rts": ",".join("" if tap is None else str(tap) for tap in taps),
            },
        )
        assert answer.status_code == 200, answer.content
    rows = {
        row.name: row for row in session_summary_rows(session=class_session) if row.level == "all"
    }
    recovered = {}
    for name, skill in (("Ava", AVA), ("Ben", BEN)):
        truth = _rt_draws(skill) - SIMPLE_RT[name][0]
        decision = rows[name].decision_ms
        assert decision is not None
        recovered[name] = decision / truth
        assert decision == pytest.approx(truth, rel=0.10)
    # Over many warm-ups (the same arithmetic, ``simple_rt_median``): unbiased, and most
    # single warm-ups give the simple RT within 10 % of the truth.
    within = {}
    for name, (mean, sd) in SIMPLE_RT.items():
        medians = [simple_rt_median(_warmup_taps(rng, mean, sd)) for _ in range(WARMUP_RUNS)]
        kept = [m for m in medians if m is not None]
        assert len(kept) == WARMUP_RUNS
        assert statistics.fmean(kept) == pytest.approx(mean, rel=0.01)
        within[name] = sum(abs(m - mean) <= 0.10 * mean for m in kept) / WARMUP_RUNS
        assert within[name] >= 0.95
    print("figures: decision time recovered (ratio)", recovered, "warm-ups within 10 %", within)
