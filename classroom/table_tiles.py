"""A playing table as the teacher's console and the projector show it (from the host's view)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.models import Table


@dataclass(frozen=True)
class PlayerLine:
    name: str
    bot: bool
    card_count: int
    score: int
    active: bool
    winner: bool
    recent: list[dict[str, Any]] = field(default_factory=list)
    claimed: int = 0


@dataclass(frozen=True)
class TableTile:
    table: Table
    live: bool
    phase: str
    flip: int
    players: list[PlayerLine]
    paused: bool
    claims: dict[str, int] = field(default_factory=dict)
    centre_count: int = 0
    game: str = ""
    round: int = 0
    # Palm Strike: the public card face up in the middle (bg, word, ink), if one is.
    public: dict[str, str] | None = None
    # May this tile show scores, ranks and winners now (classroom.standings)? Set by the page.
    standings: bool = True

    @property
    def by_claims(self) -> list[PlayerLine]:
        """Team mode's leaderboard: most cards claimed first."""
        return sorted(self.players, key=lambda player: -player.claimed)


def _public_card(card: Any) -> dict[str, str] | None:
    if not isinstance(card, dict) or not card.get("word"):
        return None
    return {key: str(card.get(key, "")) for key in ("bg", "word", "ink")}


def _entry_name(entry: Mapping[str, Any]) -> str:
    if entry.get("removed"):
        # Taken off the class list after the game: the place stays, the name does not.
        return _("(removed)")
    return str(entry.get("name", "?"))


def _entry_bot(entry: Mapping[str, Any]) -> bool:
    # A bot from the start, or one that took the seat of a child taken off the class list.
    return "bot" in entry or "took_over" in entry


def table_tile(*, table: Table, view: dict[str, Any] | None) -> TableTile:
    """Names from the table's roster, numbers from the host's teacher view (if it runs)."""
    roster = table.roster or []
    if view is None:
        players = [
            PlayerLine(_entry_name(entry), _entry_bot(entry), 0, 0, False, False)
            for entry in roster
        ]
        return TableTile(table=table, live=False, phase="", flip=0, players=players, paused=False)
    winners = set(view.get("winners") or [])
    recent = view.get("recent_trials", {})
    by_seat = {player["seat"]: player for player in view.get("players", [])}
    players = []
    for index, entry in enumerate(roster):
        player = by_seat.get(index, {})
        players.append(
            PlayerLine(
                name=_entry_name(entry),
                bot=_entry_bot(entry),
                # Palm Strike counts cards in hand; Commotion the refill pile still to clear;
                # Riff Raff the cargo still to load.
                card_count=int(
                    player.get("card_count", player.get("refill", player.get("pieces_left", 0)))
                ),
                score=int(player.get("score", player.get("total", 0))),
                active=view.get("active_seat") == index,
                winner=index in winners,
                recent=list(recent.get(str(index), []))[::-1],
                claimed=int((view.get("claims") or {}).get(str(index), 0)),
            )
        )
    return TableTile(
        table=table,
        live=True,
        phase=str(view.get("phase", "")),
        flip=int(view.get("flip") or 0),
        players=players,
        paused=bool(view.get("paused")),
        claims={str(k): int(v) for k, v in (view.get("claims") or {}).items()},
        centre_count=len(view.get("centre") or []),
        game=str(view.get("game", "")),
        round=int(view.get("round") or 0),
        public=_public_card(view.get("public")),
    )
