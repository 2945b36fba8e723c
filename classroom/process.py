"""Identity of this server process, so presence rows left by a dead process are ignored."""

from __future__ import annotations

import uuid

PROCESS_ID = uuid.uuid4().hex
