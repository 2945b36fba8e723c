from __future__ import annotations

from django.urls import path

from classroom import consumers

websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/console/", consumers.ConsoleConsumer.as_asgi()),
    path("ws/sessions/<int:session_id>/projector/", consumers.ProjectorConsumer.as_asgi()),
    path(
        "ws/sessions/<int:session_id>/tables/<int:table_id>/watch/",
        consumers.TableWatchConsumer.as_asgi(),
    ),
    path("ws/play/<str:code>/", consumers.SeatConsumer.as_asgi()),
    path("ws/play/<str:code>/table/", consumers.TableConsumer.as_asgi()),
]
