"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

from __future__ import annotations

import os

from classroom.server.http_handler import http_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "classroom.settings")
# Django must be set up before the routing imports models.
django_asgi_app = http_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from classroom.routing import websocket_urlpatterns  # noqa: E402
from classroom.server.logs import log_ids_app  # noqa: E402
from classroom.sockets.auth import auth_middleware_stack  # noqa: E402
from classroom.sockets.limits import SocketCap  # noqa: E402

# Each request and socket gets the id its log lines carry (X-Request-ID on a response).
application = log_ids_app(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # Counted first, so a socket over its address's cap costs no session lookup.
            "websocket": SocketCap(
                AllowedHostsOriginValidator(auth_middleware_stack(URLRouter(websocket_urlpatterns)))
            ),
        }
    )
)

from classroom.server.gc_tuning import gc_tune  # noqa: E402
from classroom.server.gil_switching import gil_switch_interval_set  # noqa: E402
from classroom.web.access_log import access_log_redact_install  # noqa: E402

gc_tune()
gil_switch_interval_set()

from classroom.server.daphne_limits import request_deadline_install  # noqa: E402
from classroom.server.eager_writes import eager_writes_install  # noqa: E402
from classroom.server.lean_frames import lean_frames_install  # noqa: E402

# Under Daphne: --http-timeout then also bounds a request that arrives slowly.
request_deadline_install()
# Under Daphne, which imports this before it listens: frames are framed in a few lines and
# leave without a reactor pass.
eager_writes_install()
lean_frames_install()
access_log_redact_install()
