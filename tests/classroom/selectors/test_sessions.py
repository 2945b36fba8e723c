"""Which sessions a teacher may see: those of the classes they may see, whoever ran them, and
their own guest sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from classroom.models import ClassShare
from classroom.selectors.classes import ClassRight
from classroom.selectors.sessions import (
    session_deletable_by,
    session_last,
    session_lines_by_class,
    session_list,
    sessions_visible,
)
from classroom.services.class_shares import class_share_grant, class_share_revoke
from classroom.services.sessions import session_end

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared(school_class: SchoolClass, teacher: User, other_teacher: User) -> ClassShare:
    return class_share_grant(
        school_class=school_class, by=teacher, colleague=other_teacher.username,
        role=ClassShare.Role.CO_TEACHER,
    )  # fmt: skip


def test_a_co_teacher_sees_the_classs_sessions_but_not_the_owners_guest_sessions(
    shared: ClassShare,
    make_session: Callable[..., GameSession],
    school_class: SchoolClass,
    teacher: User,
    other_teacher: User,
) -> None:
    owners = make_session(school_class=school_class)
    owners_guests = make_session()
    theirs = make_session(owner=other_teacher, school_class=school_class)
    their_guests = make_session(owner=other_teacher)
    assert set(sessions_visible(teacher=other_teacher)) == {owners, theirs, their_guests}
    assert set(sessions_visible(teacher=teacher)) == {owners, owners_guests, theirs}


def test_after_revocation_the_sessions_a_colleague_ran_stay_with_the_class(
    shared: ClassShare,
    make_session: Callable[..., GameSession],
    school_class: SchoolClass,
    teacher: User,
    other_teacher: User,
) -> None:
    theirs = make_session(owner=other_teacher, school_class=school_class)
    class_share_revoke(share=shared, by=teacher)
    assert not sessions_visible(teacher=other_teacher).exists()
    assert session_last(teacher=other_teacher) is None
    assert list(session_list(teacher=teacher)) == [theirs]


def test_a_substitute_may_not_delete_sessions_a_co_teacher_may(
    shared: ClassShare,
    make_session: Callable[..., GameSession],
    school_class: SchoolClass,
    teacher: User,
    make_teacher: Callable[..., User],
    other_teacher: User,
) -> None:
    substitute = make_teacher("mr-diaz")
    class_share_grant(
        school_class=school_class, by=teacher, colleague="mr-diaz",
        role=ClassShare.Role.SUBSTITUTE,
    )  # fmt: skip
    ran_by_substitute = make_session(owner=substitute, school_class=school_class)
    assert not session_deletable_by(session=ran_by_substitute, teacher=substitute)
    assert session_deletable_by(session=ran_by_substitute, teacher=other_teacher)
    assert session_deletable_by(session=ran_by_substitute, teacher=teacher)
    assert not sessions_visible(teacher=substitute, right=ClassRight.MANAGE).exists()
    # Their own guest sessions are theirs to delete.
    guests = make_session(owner=substitute)
    assert session_deletable_by(session=guests, teacher=substitute)


def test_the_home_page_lines_say_which_sessions_may_be_deleted(
    school_class: SchoolClass,
    teacher: User,
    make_teacher: Callable[..., User],
    make_session: Callable[..., GameSession],
) -> None:
    substitute = make_teacher("mr-diaz")
    class_share_grant(
        school_class=school_class, by=teacher, colleague="mr-diaz",
        role=ClassShare.Role.SUBSTITUTE,
    )  # fmt: skip
    session_end(session=make_session(owner=substitute, school_class=school_class))
    session_end(session=make_session(owner=substitute))
    by_class = {
        group.school_class: [line.deletable for line in group.lines]
        for group in session_lines_by_class(teacher=substitute)
    }
    assert by_class == {school_class: [False], None: [True]}
    [owners] = session_lines_by_class(teacher=teacher)
    assert [line.deletable for line in owners.lines] == [True]


def test_a_new_session_starts_from_the_last_one_this_teacher_ran(
    shared: ClassShare,
    make_session: Callable[..., GameSession],
    school_class: SchoolClass,
    other_teacher: User,
) -> None:
    theirs = make_session(owner=other_teacher, school_class=school_class)
    make_session(school_class=school_class)  # the owner's, newer
    assert session_last(teacher=other_teacher) == theirs
