from __future__ import annotations

from django.urls import path

from classroom.sockets import pages, table

websocket_urlpatterns = [
    path("ws/sessions/<int:session_id>/console/", pages.ConsoleConsumer.as_asgi()),
    path("ws/sessions/<int:session_id>/projector/", pages.ProjectorConsumer.as_asgi()),
    path(
        "ws/sessions/<int:session_id>/tables/<int:table_id>/watch/",
        table.TableWatchConsumer.as_asgi(),
    ),
    path("ws/play/<str:code>/", pages.SeatConsumer.as_asgi()),
    path("ws/play/<str:code>/table/", table.TableConsumer.as_asgi()),
]
