"""A real SMTP server for the tests (aiosmtpd, on 127.0.0.1): the site's mail goes through
Django's SMTP backend to it, and the tests read what arrived."""

from __future__ import annotations

import email
import email.policy
import socket
import threading
from typing import TYPE_CHECKING, Any

from aiosmtpd.controller import Controller

if TYPE_CHECKING:
    from collections.abc import Iterator
    from email.message import EmailMessage


class Mailbox:
    """Every message the server took, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._arrived = threading.Condition()

    # aiosmtpd calls its handler's hooks by these names.
    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._arrived:
            self.messages.append(message)  # type: ignore[arg-type]
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, timeout_s: float = 10) -> list[EmailMessage]:
        """The first ``count`` messages, once they are here (mail from another process)."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.messages) >= count, timeout=timeout_s)
        assert len(self.messages) >= count, f"{len(self.messages)} of {count} mails arrived"
        return self.messages[:count]


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def mail_server_run() -> Iterator[tuple[Mailbox, int]]:
    """Run the server for as long as the generator is held: (its mailbox, its port)."""
    mailbox = Mailbox()
    # A free port, found first: the controller checks it is up by connecting to its port.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield mailbox, port
    finally:
        controller.stop()
