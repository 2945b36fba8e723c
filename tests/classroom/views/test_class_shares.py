"""Sharing a class from its page, and what the colleague then sees on theirs."""

from __future__ import annotations

import html
import re
from dataclasses import asdict
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from classroom.models import ClassShare, GameSession
from classroom.services.class_shares import class_share_grant
from classroom.services.sessions import session_create, session_end
from games.palm_strike.config import Config

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def _share(school_class: SchoolClass, owner: User, colleague: User, role: str) -> ClassShare:
    return class_share_grant(
        school_class=school_class, by=owner, colleague=colleague.username, role=role
    )


def _add_url(school_class: SchoolClass) -> str:
    return reverse("class_share_add", args=[school_class.pk])


# --------------------------------------------------------------------------------------------
# The owner shares and revokes


def test_the_owners_class_page_offers_sharing(school_class: SchoolClass, teacher: User) -> None:
    page = _text(_client(teacher).get(reverse("class_detail", args=[school_class.pk])))
    assert 'id="class-shares"' in page
    assert "Colleague's username or e-mail" in page
    assert "Only you." in page
    assert "Delete class" in page


def test_sharing_with_htmx_swaps_the_card_with_the_colleague_listed(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    response = _client(teacher).post(
        _add_url(school_class), {"colleague": "mr-wu", "role": "substitute"}, headers=HX
    )
    assert response.status_code == 200
    card = _text(response)
    assert card.lstrip().startswith("<section")  # the card alone, for the swap
    assert "Year 3 Otters is now shared with mr-wu (Substitute)." in card
    assert "Revoke access for mr-wu" in card
    share = ClassShare.objects.get()
    assert (share.teacher, share.role, share.granted_by) == (other_teacher, "substitute", teacher)


@pytest.mark.parametrize(
    ("colleague", "message"),
    [
        ("ms-nobody", "No colleague's account can be shared with as “ms-nobody”."),
        ("ms-lin", "This is your own class: you have it already."),
        ("", "Enter your colleague's username or e-mail address."),
        ("mr-wu", "Year 3 Otters is already shared with mr-wu (Co-teacher). Revoke it first"),
    ],
)
def test_a_refused_share_says_why_in_the_card_and_changes_nothing(
    school_class: SchoolClass, teacher: User, other_teacher: User, colleague: str, message: str
) -> None:
    _share(school_class, teacher, other_teacher, ClassShare.Role.CO_TEACHER)
    response = _client(teacher).post(
        _add_url(school_class), {"colleague": colleague, "role": "substitute"}, headers=HX
    )
    assert response.status_code == 200  # htmx swaps only a 2xx answer
    assert message in _text(response)
    assert list(ClassShare.objects.values_list("teacher", "role")) == [
        (other_teacher.pk, "co_teacher")
    ]


def test_a_role_that_does_not_exist_is_refused(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    response = _client(teacher).post(
        _add_url(school_class), {"colleague": "mr-wu", "role": "owner"}, headers=HX
    )
    assert "Choose co-teacher or substitute." in _text(response)
    assert not ClassShare.objects.exists()


def test_without_htmx_sharing_goes_back_to_the_class_page_with_a_message(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    client = _client(teacher)
    response = client.post(
        _add_url(school_class), {"colleague": "mr-wu", "role": "co_teacher"}, follow=True
    )
    assert response.redirect_chain == [(reverse("class_detail", args=[school_class.pk]), 302)]
    assert "Year 3 Otters is now shared with mr-wu (Co-teacher)." in _text(response)
    refused = client.post(
        _add_url(school_class), {"colleague": "nobody", "role": "co_teacher"}, follow=True
    )
    assert "No colleague's account can be shared with as “nobody”." in _text(refused)


def test_an_unknown_name_and_a_known_one_that_cannot_be_shared_with_get_the_same_answer(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    """Nobody's, an inactive account's, or two accounts' e-mail address: the form tells no
    one which names are taken."""
    other_teacher.is_active = False
    other_teacher.save()
    for name in ("lee-a", "lee-b"):
        User.objects.create_user(username=name, email="lee@school.example", password="x")
    client = _client(teacher)
    answers = []
    for name in ("mr-nobody", "mr-wu", "lee@school.example"):
        data = {"colleague": name, "role": "substitute"}
        answer = _text(client.post(_add_url(school_class), data, headers=HX))
        # The form's CSRF token differs from answer to answer.
        answers.append(re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", answer))
        answers[-1] = answers[-1].replace(name, "NAME")
    assert "No colleague's account can be shared with as “NAME”." in answers[0]
    assert answers[0] == answers[1] == answers[2]
    assert not ClassShare.objects.exists()


def test_revoking_swaps_the_card_without_the_colleague_and_answers_post_only(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    share = _share(school_class, teacher, other_teacher, ClassShare.Role.CO_TEACHER)
    url = reverse("class_share_revoke", args=[school_class.pk, share.pk])
    client = _client(teacher)
    assert client.get(url).status_code == 405
    card = _text(client.post(url, headers=HX))
    assert "mr-wu no longer has access to Year 3 Otters." in card
    assert "Revoke access for mr-wu" not in card
    assert not ClassShare.objects.exists()
    assert (
        _client(other_teacher).get(reverse("class_detail", args=[school_class.pk])).status_code
        == 404
    )


# --------------------------------------------------------------------------------------------
# What the colleague sees


def test_a_co_teacher_sees_who_shared_it_and_no_delete_or_sharing(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    _share(school_class, teacher, other_teacher, ClassShare.Role.CO_TEACHER)
    page = _text(_client(other_teacher).get(reverse("class_detail", args=[school_class.pk])))
    assert "Shared with you by ms-lin (Co-teacher)" in page
    assert "Edit class" in page
    assert "New badge" in page
    assert "Delete class" not in page
    assert 'id="class-shares"' not in page


def test_a_substitute_sees_the_class_list_and_what_runs_a_session_only(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    _share(school_class, teacher, other_teacher, ClassShare.Role.SUBSTITUTE)
    page = _text(_client(other_teacher).get(reverse("class_detail", args=[school_class.pk])))
    assert "Shared with you by ms-lin (Substitute)" in page
    assert "Ava" in page
    for offered in ("Print badges", "Progress", "New session"):
        assert offered in page
    for hidden in ("Edit class", "Add from a file", "New badge", "Safe colours", "Delete class"):
        assert hidden not in page
    assert f'href="{reverse("class_practice", args=[school_class.pk])}"' not in page


def test_the_colleagues_home_marks_the_shared_class_and_who_ran_each_session(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    _share(school_class, teacher, other_teacher, ClassShare.Role.SUBSTITUTE)
    session = session_create(
        teacher=teacher, game="palm_strike", school_class=school_class, players_per_table=2,
        settings={},
    )  # fmt: skip
    session_end(session=session)
    page = _text(_client(other_teacher).get(reverse("home")))
    assert "Year 3 Otters" in page
    assert "shared by ms-lin" in page
    assert "run by ms-lin" in page
    # A substitute deletes no session: the ended one has no Delete button.
    assert reverse("session_delete_confirm", args=[session.pk]) not in page
    owners = _text(_client(teacher).get(reverse("home")))
    assert "shared by" not in owners
    assert "run by" not in owners
    assert reverse("session_delete_confirm", args=[session.pk]) in owners


def test_a_colleague_starts_a_session_of_the_shared_class_and_the_owner_sees_it(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    _share(school_class, teacher, other_teacher, ClassShare.Role.CO_TEACHER)
    colleague = _client(other_teacher)
    form = _text(colleague.get(reverse("session_new"), {"class": school_class.pk}))
    assert "Year 3 Otters (shared by ms-lin)" in form
    settings = {
        f"settings-{name}": str(value)
        for name, value in asdict(Config()).items()
        if not isinstance(value, bool)
    }
    response = colleague.post(
        reverse("session_new"),
        {
            "game": "palm_strike",
            "school_class": school_class.pk,
            "players_per_table": 2,
            **settings,
        },
    )
    session = GameSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("session_console", args=[session.pk])
    assert (session.teacher, session.school_class) == (other_teacher, school_class)
    owners_home = _text(_client(teacher).get(reverse("home")))
    assert reverse("session_console", args=[session.pk]) in owners_home
    assert "run by mr-wu" in owners_home


def test_a_substitutes_console_and_report_offer_no_delete(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    _share(school_class, teacher, other_teacher, ClassShare.Role.SUBSTITUTE)
    session = session_create(
        teacher=other_teacher, game="palm_strike", school_class=school_class,
        players_per_table=2, settings={},
    )  # fmt: skip
    session_end(session=session)
    delete = reverse("session_delete_confirm", args=[session.pk])
    for page in ("session_console", "session_report"):
        url = reverse(page, args=[session.pk])
        assert delete not in _text(_client(other_teacher).get(url)), page
        assert delete in _text(_client(teacher).get(url)), page


def test_the_class_page_in_traditional_chinese(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    _share(school_class, teacher, other_teacher, ClassShare.Role.CO_TEACHER)
    zh = {"accept-language": "zh-TW,zh;q=0.9"}
    owner = _client(teacher)
    page = _text(owner.get(reverse("class_detail", args=[school_class.pk]), headers=zh))
    assert "共用對象" in page
    theirs = _client(other_teacher)
    page = _text(theirs.get(reverse("class_detail", args=[school_class.pk]), headers=zh))
    assert "由 ms-lin 與你共用（協同老師）" in page
