"""The engine and Config a live table plays with: the game's own, or wrapped to adapt."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from games.engine.adaptive import AdaptiveConfig, AdaptiveEngine, SeatBand, ladder_config
from games.engine.settings import SettingError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.engine.spec import GameSpec

logger = logging.getLogger(__name__)


def seat_bands(roster: Sequence[Mapping[str, Any]]) -> dict[int, SeatBand]:
    """Engine seat -> staircase band, for the human seats (roster entries carry ``rung`` and
    ``band`` when the table adapts; see services.live_tables.table_roster_fix)."""
    bands = {}
    for index, entry in enumerate(roster):
        if "seat_id" not in entry:
            continue
        floor, ceiling = entry.get("band") or (0, None)
        bands[index] = SeatBand(start=int(entry.get("rung", 0)), floor=floor, ceiling=ceiling)
    return bands


def table_engine(
    *,
    spec: GameSpec,
    settings: Mapping[str, Any],
    adaptive: bool,
    roster: Sequence[Mapping[str, Any]],
) -> tuple[Any, Any]:
    """(engine, config) for ``engine.setup``/``replay``."""
    config = spec.table_config(spec.config(settings), roster)
    if not adaptive or not spec.ladder:
        return spec.engine(), config
    try:
        for step in spec.ladder:
            ladder_config(config, step)
    except SettingError:
        # A teacher's setting rules some rungs out (e.g. an auto-flip faster than the slowest
        # rung's window): play the table as set rather than not at all.
        logger.warning("%s: settings clash with the adaptive ladder; not adapting", spec.slug)
        return spec.engine(), config
    return AdaptiveEngine(spec.engine(), spec.ladder), AdaptiveConfig(
        game=config, bands=seat_bands(roster)
    )
