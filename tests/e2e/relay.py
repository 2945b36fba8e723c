"""A tiny TCP relay on loopback between the browser and Daphne, to play network faults.

- ``freeze()``: a Wi-Fi drop. Every connection stays open but nothing moves either way (each
  direction holds what it read); new connections are accepted and held the same way. The
  kernel still acknowledges what it receives, just as a dead link gives no reset.
- ``thaw()``: the link is back; what was held moves on.
- ``go_down()`` / ``come_up()``: the server gone and back. Open connections are reset, the
  listening socket is closed (connections are refused), then opened again on the same port.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading


class Relay:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self._flowing = threading.Event()
        self._flowing.set()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        listener = self._listen(0)
        self._listener: socket.socket | None = listener
        self.port = int(listener.getsockname()[1])
        self._start_accepting()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    def go_down(self) -> None:
        # Closing alone leaves the socket listening while the accept thread is blocked on it:
        # the next connection would still get through (and a probe's keep-alive connection
        # with it). Shut down first, which wakes the thread.
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            for sock in list(self._sockets):
                _reset(sock)
            self._sockets.clear()

    def come_up(self) -> None:
        self._listener = self._listen(self.port)
        self._start_accepting()

    def close(self) -> None:
        self.thaw()
        self.go_down()

    def _listen(self, port: int) -> socket.socket:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(64)
        return listener

    def _start_accepting(self) -> None:
        assert self._listener is not None
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _address = listener.accept()
            except OSError:
                return  # closed: the server is down
            if listener is not self._listener:
                _reset(client)  # accepted as the server went down
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self._flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)


def _reset(sock: socket.socket) -> None:
    """Close with a reset, as a process that died leaves its connections."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.close()
