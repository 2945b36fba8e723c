"""Which classes a teacher may see, and with which right: the one selector every page uses."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from classroom.models import ClassShare
from classroom.selectors.classes import (
    ClassRight,
    class_access,
    class_list,
    class_shares,
    classes_visible,
    teachers_find,
)
from classroom.services.class_shares import class_share_grant, class_share_revoke
from classroom.services.classes import class_create

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db


@pytest.fixture
def colleagues(
    school_class: SchoolClass, teacher: User, make_teacher: Callable[..., User]
) -> dict[str, User]:
    """A co-teacher, a substitute and a stranger for the owner's class."""
    found = {role: make_teacher(f"t-{role}") for role in ("co_teacher", "substitute", "stranger")}
    for role in ("co_teacher", "substitute"):
        class_share_grant(school_class=school_class, by=teacher, colleague=f"t-{role}", role=role)
    return found


@pytest.mark.parametrize(
    ("who", "rights"),
    [
        ("co_teacher", {ClassRight.SEE, ClassRight.MANAGE}),
        ("substitute", {ClassRight.SEE}),
        ("stranger", set()),
    ],
)
def test_each_role_holds_its_rights_over_the_shared_class(
    school_class: SchoolClass, colleagues: dict[str, User], who: str, rights: set[ClassRight]
) -> None:
    held = {
        right
        for right in ClassRight
        if classes_visible(teacher=colleagues[who], right=right).filter(pk=school_class.pk).exists()
    }
    assert held == rights


def test_the_owner_holds_every_right(school_class: SchoolClass, teacher: User) -> None:
    for right in ClassRight:
        assert list(classes_visible(teacher=teacher, right=right)) == [school_class]


def test_a_colleague_sees_their_own_classes_and_the_shared_one_once(
    school_class: SchoolClass, colleagues: dict[str, User]
) -> None:
    co_teacher = colleagues["co_teacher"]
    own = class_create(teacher=co_teacher, name="Year 4 Foxes", student_names=[])
    assert set(classes_visible(teacher=co_teacher)) == {school_class, own}
    assert list(classes_visible(teacher=co_teacher, right=ClassRight.OWN)) == [own]


def test_after_revocation_the_colleague_sees_nothing_of_the_class(
    school_class: SchoolClass, teacher: User, colleagues: dict[str, User]
) -> None:
    share = ClassShare.objects.get(teacher=colleagues["co_teacher"])
    class_share_revoke(share=share, by=teacher)
    assert not classes_visible(teacher=colleagues["co_teacher"]).exists()
    assert class_access(school_class=school_class, teacher=colleagues["co_teacher"]) is None


@pytest.mark.parametrize(
    ("who", "facts"),
    [
        ("owner", (True, True, "Owner")),
        ("co_teacher", (False, True, "Co-teacher")),
        ("substitute", (False, False, "Substitute")),
    ],
)
def test_class_access_names_the_role_and_what_it_may_do(
    school_class: SchoolClass,
    teacher: User,
    colleagues: dict[str, User],
    who: str,
    facts: tuple[bool, bool, str],
) -> None:
    access = class_access(school_class=school_class, teacher={"owner": teacher, **colleagues}[who])
    assert access is not None
    assert (access.is_owner, access.may_manage, access.role_label) == facts


def test_a_stranger_has_no_access(school_class: SchoolClass, colleagues: dict[str, User]) -> None:
    assert class_access(school_class=school_class, teacher=colleagues["stranger"]) is None


def test_the_home_list_marks_a_shared_class_with_its_owner_and_the_role(
    school_class: SchoolClass, teacher: User, colleagues: dict[str, User]
) -> None:
    [shared] = class_list(teacher=colleagues["substitute"])
    assert shared == school_class
    assert shared.shared_role == "substitute"
    assert shared.teacher == teacher
    assert shared.student_count == 5
    [own] = class_list(teacher=teacher)
    assert own.shared_role is None


def test_the_owners_list_of_shares_is_oldest_first(
    school_class: SchoolClass, colleagues: dict[str, User]
) -> None:
    assert [share.teacher for share in class_shares(school_class=school_class)] == [
        colleagues["co_teacher"],
        colleagues["substitute"],
    ]


def test_teachers_find_prefers_the_exact_username_then_capitals_then_e_mail(
    make_teacher: Callable[..., User],
) -> None:
    lin = make_teacher("Lin")
    lin.email = "wu@school.example"
    lin.save()
    wu = make_teacher("wu@school.example")  # Django usernames may look like addresses
    assert teachers_find(name="wu@school.example") == [wu]
    assert teachers_find(name="LIN") == [lin]
    assert teachers_find(name="WU@school.example") == [wu]
    assert teachers_find(name="") == []
    assert teachers_find(name="x" * 255) == []
