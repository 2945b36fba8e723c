// The page's half of the heartbeat, for every live socket (table_socket.js, live.js).
//
// A Wi-Fi drop sends no close: only silence tells. SnapclassHeartbeat.start(ping, lost) calls
// ping() every second; the link is lost (lost() is called once) when a ping went unanswered
// for most of LOST_AFTER_MS and nothing at all came for LOST_AFTER_MS. Timers of a hidden page
// may fire a minute apart: counting from the oldest unanswered ping, not from the last frame,
// keeps a late timer from looking like a lost link. The server's half is
// games/live/heartbeat.py (4 s without a frame closes the socket).
(function () {
  "use strict";

  var PING_EVERY_MS = 1000;
  var LOST_AFTER_MS = 3000;

  function start(ping, lost) {
    var heardAt = performance.now();
    var pingedAt = -Infinity;
    var unansweredSince = null;
    var timer = setInterval(function () {
      var now = performance.now();
      if (unansweredSince !== null && now - unansweredSince >= LOST_AFTER_MS - 500
          && now - heardAt >= LOST_AFTER_MS) {
        clearInterval(timer);
        lost();
        return;
      }
      if (now - pingedAt >= PING_EVERY_MS) {
        pingedAt = now;
        if (unansweredSince === null) unansweredSince = now;
        ping();
      }
    }, 250);
    return {
      heard: function () { heardAt = performance.now(); unansweredSince = null; },
      stop: function () { clearInterval(timer); },
    };
  }

  // No close handshake to wait for on a dead link: silence the socket's handlers and drop it.
  function abandon(socket) {
    socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
    try { socket.close(); } catch (ignored) { /* already closing */ }
  }

  window.SnapclassHeartbeat = { start: start, abandon: abandon, LOST_AFTER_MS: LOST_AFTER_MS };
})();
