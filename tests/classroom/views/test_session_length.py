"""The new-session form says how long one game lasts with its settings (issue 45), and says it
again as the settings change: the figure is ``games.engine.pace.typical_game_ms``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse

from games.engine.settings import config_to_values
from games.registry import game_get

if TYPE_CHECKING:
    from django.test import Client

pytestmark = pytest.mark.django_db


def _form(game: str, players: int, **settings: Any) -> dict[str, Any]:
    spec = game_get(game)
    assert spec is not None
    values = {**config_to_values(spec.default_config()), **settings}
    data: dict[str, Any] = {"game": game, "players_per_table": players}
    for name, value in values.items():
        if value is True:
            data[f"settings-{name}"] = "on"
        elif value is not False:
            data[f"settings-{name}"] = value
    return data


def _length(client: Client, data: dict[str, Any]) -> str:
    page = client.get(reverse("session_length"), data)
    assert page.status_code == 200
    text = page.content.decode()
    # The text alone: the page keeps its element (and the element its trigger).
    assert "<" not in text
    return text


def test_the_form_asks_for_the_length_once_it_is_shown(teacher_client: Client) -> None:
    # Working it out takes a Riff Raff game about a second: the page comes first.
    page = teacher_client.get(reverse("session_new")).content.decode()
    assert 'id="game-length"' in page
    assert "Working out how long a game lasts" in page


def test_the_length_follows_the_settings(teacher_client: Client) -> None:
    assert "About 3 minutes a game" in _length(teacher_client, _form("palm_strike", 4))
    one_round = _form("palm_strike", 4, points_target=0)
    assert "Under a minute a game" in _length(teacher_client, one_round)
    # Two players to 40 points: about a quarter of an hour.
    assert "About 14 minutes a game" in _length(
        teacher_client, _form("palm_strike", 2, points_target=40)
    )


def test_settings_that_cannot_be_played_say_so(teacher_client: Client) -> None:
    data = _form("palm_strike", 4, flip_pacing="auto", auto_flip_s=2.0, response_window_s=3.0)
    assert "Fix the settings above" in _length(teacher_client, data)


def test_each_game_s_default_length_is_said(teacher_client: Client) -> None:
    for game in ("commotion", "riff_raff"):
        spec = game_get(game)
        assert spec is not None
        assert "minutes a game" in _length(teacher_client, _form(game, spec.default_players))
