"""``manage.py school_admin <username or e-mail>``: make a teacher account a school admin, who
lists, invites, disables and re-enables teachers on the site (``/school/teachers/``). An
address with no account yet gets one, with a password asked for here (twice). The grant goes
in the audit log."""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.utils import timezone

from classroom.selectors.teachers import teacher_find_by_email
from classroom.services.teacher_accounts import school_admin_grant

if TYPE_CHECKING:
    from argparse import ArgumentParser


class Command(BaseCommand):
    help = (
        "Make a teacher account a school admin (by username or e-mail); an e-mail address "
        "with no account gets one, with a password asked for here."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("account", help="The teacher's username or e-mail address.")

    def handle(self, *args: Any, **options: Any) -> None:
        name = str(options["account"]).strip()
        user = User.objects.filter(username=name).first() or teacher_find_by_email(email=name)
        if user is None:
            user = self._create(name)
        if not user.is_active:
            raise CommandError(f"{user.get_username()} is disabled: re-enable it first.")
        if school_admin_grant(user=user, now=timezone.now()):
            self.stdout.write(f"{user.get_username()} is now a school admin.")
        else:
            self.stdout.write(f"{user.get_username()} was a school admin already.")

    def _create(self, email: str) -> User:
        try:
            validate_email(email)
        except ValidationError as error:
            message = f"No account is called {email!r}; give an e-mail address to make one."
            raise CommandError(message) from error
        email = email.lower()
        candidate = User(username=email, email=email)
        password = getpass.getpass(f"Password for {email}: ")
        if getpass.getpass("The same password again: ") != password:
            raise CommandError("The passwords differ. Nothing was made.")
        try:
            validate_password(password, user=candidate)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        return User.objects.create_user(username=email, email=email, password=password)
