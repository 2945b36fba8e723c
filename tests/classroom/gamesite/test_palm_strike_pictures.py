"""Palm Strike's settings in pictures on the new-session form (issue 45): each matching level
shown as a pair that matches at that level and not at the next, by the game's own rule, and no
word the form never explains ("player card", "public card", orange and white cards)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse

from games.palm_strike.cards import PlayerCard, PublicCard
from games.palm_strike.matching import LEVELS
from games.palm_strike.rules import matches

if TYPE_CHECKING:
    from django.test import Client

pytestmark = pytest.mark.django_db

PAIR = re.compile(r'data-level="(\w+)" data-public="(\w+) (\w+) (\w+)" data-player="(\w+) (\w+)"')


def _settings_part(client: Client, language: str = "en") -> str:
    client.cookies["django_language"] = language
    page = client.get(reverse("session_settings"), {"game": "palm_strike"})
    assert page.status_code == 200
    return page.content.decode()


def test_each_level_is_shown_as_a_pair_that_matches_there_and_not_at_the_next(
    teacher_client: Client,
) -> None:
    pairs = PAIR.findall(_settings_part(teacher_client))
    assert [pair[0] for pair in pairs] == list(LEVELS)
    for level, bg, word, ink, card_bg, pic in pairs:
        public = PublicCard(bg=bg, word=word, ink=ink)
        card = PlayerCard(bg=card_bg, pic=pic, motif="fish")
        assert matches(public, card, level), level
        harder = LEVELS[LEVELS.index(level) + 1 :]
        assert not any(matches(public, card, other) for other in harder), level


def test_the_form_says_what_the_children_see_not_the_cards_backs(teacher_client: Client) -> None:
    part = _settings_part(teacher_client)
    text = re.sub(r"<[^>]+>", " ", part)
    for unexplained in ("player card", "public card", "Orange", "orange", "white card"):
        assert unexplained not in text
    assert "In the children&#x27;s hands:" in part or "In the children's hands:" in part
    # The cards of the pictures are named for a screen reader, in the teacher's language.
    assert 'aria-label="the word BLUE in green on red"' in part
    zh = _settings_part(teacher_client, "zh-hant")
    assert "藍" in zh


def test_only_a_game_with_colour_words_shows_their_language_on_the_console(
    teacher_client: Client, teacher: object
) -> None:
    from classroom.services.sessions import session_create

    for game, shown in (("palm_strike", True), ("commotion", False), ("riff_raff", False)):
        session = session_create(
            teacher=teacher, game=game, school_class=None, players_per_table=2, settings={}
        )
        page = teacher_client.get(reverse("session_console", args=[session.pk])).content.decode()
        assert ("Colour words in" in page) is shown, game
