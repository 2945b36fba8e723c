"""Sharing a class with a colleague and taking it back: who may, with whom, and the refusals."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError

from classroom.models import ClassShare, GameSession
from classroom.selectors.sessions import session_list
from classroom.services.assignments import assignment_create
from classroom.services.class_shares import class_share_grant, class_share_revoke
from classroom.services.classes import class_delete_begin, classes_purge
from classroom.services.sessions import session_create

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db

CO_TEACHER = ClassShare.Role.CO_TEACHER
SUBSTITUTE = ClassShare.Role.SUBSTITUTE


def _refused(
    school_class: SchoolClass, by: User, colleague: str, role: str = CO_TEACHER
) -> list[str]:
    """The messages of a refused share; nothing changed."""
    before = list(ClassShare.objects.values_list("pk", "teacher", "role"))
    with pytest.raises(ValidationError) as caught:
        class_share_grant(school_class=school_class, by=by, colleague=colleague, role=role)
    assert list(ClassShare.objects.values_list("pk", "teacher", "role")) == before
    return caught.value.messages


def _session(teacher: User, school_class: SchoolClass | None) -> GameSession:
    return session_create(
        teacher=teacher, game="palm_strike", school_class=school_class, players_per_table=2,
        settings={},
    )  # fmt: skip


# --------------------------------------------------------------------------------------------
# class_share_grant


def test_the_owner_shares_by_username_and_the_share_remembers_who_and_as_what(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    share = class_share_grant(
        school_class=school_class, by=teacher, colleague="  mr-wu ", role=SUBSTITUTE
    )
    assert (share.school_class, share.teacher, share.role) == (
        school_class, other_teacher, SUBSTITUTE,
    )  # fmt: skip
    assert share.granted_by == teacher


def test_a_colleague_is_found_by_username_in_other_capitals_or_by_e_mail(
    school_class: SchoolClass, teacher: User, other_teacher: User, make_teacher: Callable[..., User]
) -> None:
    assert (
        class_share_grant(
            school_class=school_class, by=teacher, colleague="MR-WU", role=CO_TEACHER
        ).teacher
        == other_teacher
    )
    chen = make_teacher("chen")
    chen.email = "Chen@School.example"
    chen.save()
    assert (
        class_share_grant(
            school_class=school_class, by=teacher, colleague="chen@school.example", role=CO_TEACHER
        ).teacher
        == chen
    )


def _not_found(name: str) -> str:
    """One answer for a name that is nobody's, an inactive account's or several accounts'."""
    return (
        f"No colleague's account can be shared with as “{name}”. Check their exact username "
        "with them."
    )


def test_an_exact_username_wins_over_the_same_name_in_other_capitals(
    school_class: SchoolClass, teacher: User, make_teacher: Callable[..., User]
) -> None:
    make_teacher("Wu")
    exact = make_teacher("wu")
    share = class_share_grant(
        school_class=school_class, by=teacher, colleague="wu", role=CO_TEACHER
    )
    assert share.teacher == exact
    assert _refused(school_class, teacher, "WU") == [_not_found("WU")]


def test_an_unknown_or_inactive_account_or_nothing_typed_is_refused_with_a_message(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    assert _refused(school_class, teacher, "ms-nobody") == [_not_found("ms-nobody")]
    assert _refused(school_class, teacher, "  ") == [
        "Enter your colleague's username or e-mail address."
    ]
    assert _refused(school_class, teacher, "x" * 300) == [_not_found("x" * 300)]
    other_teacher.is_active = False
    other_teacher.save()
    assert _refused(school_class, teacher, "mr-wu") == [_not_found("mr-wu")]


def test_several_accounts_with_one_e_mail_address_are_answered_as_none(
    school_class: SchoolClass, teacher: User, make_teacher: Callable[..., User]
) -> None:
    for name in ("lee-a", "lee-b"):
        account = make_teacher(name)
        account.email = "lee@school.example"
        account.save()
    assert _refused(school_class, teacher, "lee@school.example") == [
        _not_found("lee@school.example")
    ]


def test_sharing_with_yourself_is_refused(school_class: SchoolClass, teacher: User) -> None:
    assert _refused(school_class, teacher, "ms-lin") == [
        "This is your own class: you have it already."
    ]


def test_sharing_twice_is_refused_and_keeps_the_first_role(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    class_share_grant(school_class=school_class, by=teacher, colleague="mr-wu", role=SUBSTITUTE)
    assert _refused(school_class, teacher, "mr-wu") == [
        "Year 3 Otters is already shared with mr-wu (Substitute). Revoke it first to change "
        "the role."
    ]
    assert ClassShare.objects.get().role == SUBSTITUTE


def test_an_unknown_role_is_refused(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    assert _refused(school_class, teacher, "mr-wu", "owner") == ["Choose co-teacher or substitute."]


def test_only_the_owner_shares_a_co_teacher_cannot_share_it_on(
    school_class: SchoolClass, teacher: User, other_teacher: User, make_teacher: Callable[..., User]
) -> None:
    class_share_grant(school_class=school_class, by=teacher, colleague="mr-wu", role=CO_TEACHER)
    make_teacher("ms-fox")
    refused = ["Only the teacher who owns this class can share it."]
    assert _refused(school_class, other_teacher, "ms-fox") == refused
    stranger = make_teacher("mr-stone")
    assert _refused(school_class, stranger, "mr-stone") == refused


# --------------------------------------------------------------------------------------------
# class_share_revoke


def test_the_owner_revokes_and_the_colleague_loses_the_class_and_the_sessions_they_ran(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    share = class_share_grant(
        school_class=school_class, by=teacher, colleague="mr-wu", role=CO_TEACHER
    )
    theirs = _session(other_teacher, school_class)
    assert set(session_list(teacher=other_teacher)) == {theirs}
    class_share_revoke(share=share, by=teacher)
    assert not ClassShare.objects.exists()
    assert not session_list(teacher=other_teacher).exists()
    # The session stays the class's: its owner still sees it.
    assert set(session_list(teacher=teacher)) == {theirs}


def test_a_colleague_cannot_revoke_a_share_not_even_their_own(
    school_class: SchoolClass, teacher: User, other_teacher: User, make_teacher: Callable[..., User]
) -> None:
    mine = class_share_grant(
        school_class=school_class, by=teacher, colleague="mr-wu", role=CO_TEACHER
    )
    make_teacher("ms-fox")
    fox = class_share_grant(
        school_class=school_class, by=teacher, colleague="ms-fox", role=SUBSTITUTE
    )
    for share in (mine, fox):
        with pytest.raises(ValidationError):
            class_share_revoke(share=share, by=other_teacher)
    assert ClassShare.objects.count() == 2


def test_deleting_the_class_deletes_its_shares(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    class_share_grant(school_class=school_class, by=teacher, colleague="mr-wu", role=CO_TEACHER)
    class_delete_begin(school_class=school_class)
    classes_purge()
    assert not ClassShare.objects.exists()


# --------------------------------------------------------------------------------------------
# What a share lets the other services do


@pytest.mark.parametrize("role", [CO_TEACHER, SUBSTITUTE])
def test_a_colleague_runs_sessions_of_the_class_and_they_belong_to_it(
    school_class: SchoolClass, teacher: User, other_teacher: User, role: str
) -> None:
    class_share_grant(school_class=school_class, by=teacher, colleague="mr-wu", role=role)
    session = _session(other_teacher, school_class)
    assert (session.teacher, session.school_class) == (other_teacher, school_class)
    assert session in session_list(teacher=teacher)


def test_a_stranger_cannot_run_a_session_of_the_class(
    school_class: SchoolClass, other_teacher: User
) -> None:
    with pytest.raises(ValidationError) as caught:
        _session(other_teacher, school_class)
    assert caught.value.message_dict == {"school_class": ["Choose one of your classes."]}
    assert not GameSession.objects.exists()


@pytest.mark.parametrize(("role", "allowed"), [(CO_TEACHER, True), (SUBSTITUTE, False)])
def test_a_co_teacher_sets_practice_a_substitute_does_not(
    school_class: SchoolClass, teacher: User, other_teacher: User, role: str, allowed: bool
) -> None:
    class_share_grant(school_class=school_class, by=teacher, colleague="mr-wu", role=role)

    def assign() -> None:
        assignment_create(
            teacher=other_teacher, school_class=school_class, student=None, game="commotion",
            rung_min=0, rung_max=1, goal_kind="games", goal=1, due_on=None,
        )  # fmt: skip

    if allowed:
        assign()
    else:
        with pytest.raises(ValidationError):
            assign()
    assert school_class.assignments.count() == int(allowed)
