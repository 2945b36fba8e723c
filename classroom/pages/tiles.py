"""A playing table as the teacher's console and the projector show it (from the host's view)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from classroom.gamesite import game_site_get, game_sites
from classroom.gamesite.contract import tile_partials

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.models import Table


# The partials of a tile whose game is not known yet (a table waiting for its first tablet).
PLAIN_TILE = "gamesite/_tile.html"


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
    # A public card face up in the middle (bg, word, ink), if the game has one.
    public: dict[str, str] | None = None
    # May this tile show scores, ranks and winners now (classroom.selectors.standings)? Set by
    # the page.
    standings: bool = True

    @cached_property
    def partials(self) -> dict[str, str]:
        """The game's tile partials (``GameSite.tile_template``) the pages include; a table
        whose host has not started yet has no game in its view and gets the plain ones."""
        site = game_site_get(self.game)
        return site.tile_partials() if site is not None else tile_partials(PLAIN_TILE)

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


def _count_fields(game: str) -> tuple[str, ...]:
    """Where the per-player number is in a view of ``game`` (every game's field, in the
    registry's order, for a view that does not say its game)."""
    site = game_site_get(game)
    return (site.count_field,) if site is not None else tuple(s.count_field for s in game_sites())


def _count(player: dict[str, Any], fields: tuple[str, ...]) -> int:
    return int(next((player[name] for name in fields if name in player), 0))


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
    fields = _count_fields(str(view.get("game", "")))
    recent = view.get("recent_trials", {})
    by_seat = {player["seat"]: player for player in view.get("players", [])}
    players = []
    for index, entry in enumerate(roster):
        player = by_seat.get(index, {})
        players.append(
            PlayerLine(
                name=_entry_name(entry),
                bot=_entry_bot(entry),
                card_count=_count(player, fields),
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
