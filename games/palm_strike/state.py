"""The game state of one Palm Strike table, and how to copy and compare it.

A State is plain data. The rule functions never change a state they were given: they work
on :meth:`State.clone` and return the copy, so a host may keep old states (and a rejected
input returns the very object it was given).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from games.engine.table import TableState
from games.palm_strike.bots import BotSkill
from games.palm_strike.config import Config

if TYPE_CHECKING:
    from games.palm_strike.cards import Card

RaceOutcome = Literal["own", "other", "both", "false", "claim", "false_claim"]
# give: one of your cards to ``to_seat``; return: one under the player deck; player: whose
# matching card it was, when several other players have one (then a "give" may follow).
Reason = Literal["give", "return", "player"]


@dataclass
class Response:
    """One seat's slap (or team-mode claim) on one flip, as received."""

    seat: int
    received_ms: int
    # None when the tablet could not time the input (``untimed`` says why).
    rt_ms: int | None
    rtt_ms: int
    plausible: bool
    bot: bool
    # Team mode: the centre place tapped (internal position, not the view's index), the card
    # in it at that moment, and whether it matched the flipped card.
    place: int | None = None
    card: Card | None = None
    hit: bool = False
    # Received before the grace window closed (or opened it): it may win the race.
    competing: bool = False
    untimed: str | None = None


@dataclass
class BotMove:
    """A bot's response decided at the flip, applied when its reaction time has passed."""

    due_ms: int
    seat: int
    rt_ms: int
    place: int | None = None


@dataclass
class Flip:
    """The current (or most recent) flipped card and everything that happened on it."""

    number: int
    card: Card
    shown_ms: int
    closes_ms: int
    # The table as it was when the card was flipped: seat -> cards, and the team-mode centre.
    # Trials judge "was there a match for this seat" on this snapshot.
    table: dict[int, tuple[Card, ...]]
    centre: tuple[Card | None, ...] = ()
    responses: list[Response] = field(default_factory=list)
    bot_moves: list[BotMove] = field(default_factory=list)
    # Server time the race is decided: the first slap + grace. None until someone slaps.
    grace_ends_ms: int | None = None
    resolved: bool = False
    winner: int | None = None
    outcome: RaceOutcome | None = None
    open: bool = True
    # Extra time (Config.window_scale_by_seat): the flip stays open until the longest seat
    # window (``closes_ms``); these are the earlier seat windows' ends still to come, in
    # order, each a timer so those seats' tablets see the card close on time.
    early_closes: list[int] = field(default_factory=list)


@dataclass
class Choice:
    """A slapper must pick one of their own cards (RULES.md: "any one of your cards")."""

    seat: int
    reason: Reason
    to_seat: int | None
    deadline_ms: int
    # reason "player": the seats to pick from, clockwise from the chooser (the default first).
    options: tuple[int, ...] = ()


@dataclass(eq=False)
class State(TableState[Config, BotSkill]):
    """Everything about one table. Deck lists are top-first; hands keep the order dealt."""

    # The deck dealt in front of players (white; orange in deck swap), top first.
    player_deck: list[Card]
    # The deck that is flipped (orange; white in deck swap), top first, and its discard pile.
    flip_deck: list[Card]
    discard: list[Card]
    # Cards in front of each seat; in team mode the cards each seat has claimed.
    hands: dict[int, list[Card]]
    # Team mode: the places around the flip deck (None = an empty place). Refills go into the
    # same place, so places keep their position; views list only the cards.
    centre: list[Card | None]
    scores: dict[int, int]
    active_seat: int | None
    round: int = 1
    flips: int = 0
    round_flips: int = 0
    current: Flip | None = None
    choice: Choice | None = None
    # Set by the first tick: the clock has started (auto flips and bot turns are scheduled).
    started: bool = False
    # When the next flip happens by itself (auto pacing, or a bot's turn); None otherwise.
    next_flip_ms: int | None = None
    # Points variant: when the next round is dealt.
    next_round_ms: int | None = None
    # Seats that emptied their area (or won team mode) this round, waiting for the window.
    round_winners: list[int] = field(default_factory=list)
    game_over: bool = False
    winners: list[int] = field(default_factory=list)

    def clone(self) -> State:
        """An independent copy: every mutable part copied, cards (frozen) shared.

        Written out by hand because every tick and input of every table runs it on the event
        loop, and ``deepcopy`` is several times slower (the deepest part of a busy server's
        loop, py-spy at 810 students). A new mutable field must be copied here too (the
        contract tests compare fingerprints of inputs before and after every step).
        """
        return self.copied(
            player_deck=list(self.player_deck),
            flip_deck=list(self.flip_deck),
            discard=list(self.discard),
            hands={seat: list(cards) for seat, cards in self.hands.items()},
            centre=list(self.centre),
            scores=dict(self.scores),
            current=_copy_flip(self.current) if self.current is not None else None,
            choice=dataclasses.replace(self.choice) if self.choice is not None else None,
            round_winners=list(self.round_winners),
            winners=list(self.winners),
        )


def _copy_flip(flip: Flip) -> Flip:
    # The snapshot's card tuples and the centre tuple are immutable: shared.
    return dataclasses.replace(
        flip,
        table=dict(flip.table),
        responses=[dataclasses.replace(response) for response in flip.responses],
        bot_moves=[dataclasses.replace(move) for move in flip.bot_moves],
        early_closes=list(flip.early_closes),
    )
