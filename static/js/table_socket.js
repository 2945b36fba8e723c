// The game socket of a tablet at a live table, shared by every game page.
//
// Connects to root.dataset.tableSocket (the seat token travels in its HttpOnly cookie, out of
// page script's reach), pings every 4 s for the round-trip time, reconnects with
// jittered backoff (capped at 8 s) and shows the calm "Reconnecting…" overlay meanwhile, asks
// for a fresh view when the tablet wakes up, and stops for good on the server's final close
// codes (removed, no seat, flood, table not playing). A teacher page watching a table uses it
// too (no seat, no overlay): it waits through "not playing" and stops once its element has left
// the page.
(function () {
  "use strict";

  var STOP_CODES = [4008, 4401, 4403, 4404];

  function connectTable(root, handlers) {
    var socket = null;
    var seq = 0;
    var version = -1;
    var epoch = 0;
    // Each input carries this page's id and its number: sent twice, it is applied once.
    var pageId = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
    var unanswered = {};  // seq -> {frame, at}: inputs the server has not answered yet
    var RESEND_WITHIN_MS = 5000;
    var rttMs = 0;
    var pings = {};
    var retries = 0;
    var stopped = false;
    var lastError = "";
    var seated = Boolean(root.dataset.seatCode);
    var stopCodes = seated ? STOP_CODES : [4008, 4403];
    var reconnecting = seated ? document.querySelector("[data-reconnecting]") : null;

    function send(frame) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
    }

    function ping() {
      seq += 1;
      pings[seq] = performance.now();
      send({ type: "ping", seq: seq });
    }

    function open() {
      if (!root.isConnected) { stopped = true; return; }
      var scheme = location.protocol === "https:" ? "wss://" : "ws://";
      // A page that draws points and ranks asks to be told what it may show (handlers.onStandings).
      var ask = handlers.onStandings ? "?standings=1" : "";
      socket = new WebSocket(scheme + location.host + root.dataset.tableSocket + ask);
      socket.onopen = function () {
        retries = 0;
        if (reconnecting) reconnecting.hidden = true;
        ping();
        resendUnanswered();
      };
      socket.onmessage = function (message) {
        if (!root.isConnected) { stopped = true; socket.close(); return; }
        var frame = JSON.parse(message.data);
        if (frame.type === "state") {
          // Views are whole: an older one is stale, unless a new owner of the table sent it
          // (a higher epoch after a takeover).
          if ((frame.epoch || 0) < epoch) return;
          if ((frame.epoch || 0) === epoch && frame.version < version) return;
          epoch = frame.epoch || 0;
          version = frame.version;
          handlers.onState(frame.view, frame.events || []);
          // For page parts outside the game's own script (the adaptive level badge).
          root.dispatchEvent(new CustomEvent("snapclass:view", { detail: frame.view, bubbles: true }));
        } else if (frame.type === "motion") {
          // Moving things between changes (physics): only for the version it moves on from.
          if (frame.version === version && (frame.epoch || 0) === epoch && handlers.onMotion) handlers.onMotion(frame);
        } else if (frame.type === "standings") {
          if (handlers.onStandings) handlers.onStandings(frame);
        } else if (frame.type === "ack") {
          delete unanswered[frame.seq];
        } else if (frame.type === "pong") {
          var sentAt = pings[frame.seq];
          delete pings[frame.seq];
          if (sentAt !== undefined) rttMs = Math.round(performance.now() - sentAt);
        } else if (frame.type === "error") {
          if (frame.seq !== undefined) delete unanswered[frame.seq];
          lastError = frame.message;
          if (handlers.onError) handlers.onError(frame);
        }
      };
      socket.onclose = function (event) {
        if (stopCodes.indexOf(event.code) >= 0) {
          stopped = true;
          if (handlers.onStop) handlers.onStop(lastError);
          return;
        }
        if (stopped) return;
        if (reconnecting) reconnecting.hidden = false;
        var ceiling = Math.min(500 * Math.pow(2, retries), 8000);
        retries += 1;
        setTimeout(open, ceiling / 2 + Math.random() * (ceiling / 2));
      };
    }

    var pinger = setInterval(function () {
      if (stopped) clearInterval(pinger); else ping();
    }, 4000);
    window.addEventListener("online", function () {
      if (!socket || socket.readyState === WebSocket.CLOSED) open();
    });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && socket && socket.readyState === WebSocket.OPEN) {
        send({ type: "sync", seq: ++seq });
      }
    });
    open();

    function resendUnanswered() {
      // The socket dropped before the server answered: send those inputs again (the server
      // ignores any it had already stored); older ones are no longer what the child meant.
      var now = performance.now();
      Object.keys(unanswered).forEach(function (key) {
        var entry = unanswered[key];
        if (now - entry.at < RESEND_WITHIN_MS) send(entry.frame);
        else delete unanswered[key];
      });
    }

    return {
      act: function (action) {
        seq += 1;
        var frame = { type: "act", seq: seq, action: action, cid: pageId + ":" + seq };
        unanswered[seq] = { frame: frame, at: performance.now() };
        send(frame);
      },
      rtt: function () { return rttMs; },
    };
  }

  window.SnapclassTable = { connect: connectTable };
})();
