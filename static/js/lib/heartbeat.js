// The page's half of the heartbeat, for every live socket (table_socket.js, live.js).
//
// A Wi-Fi drop sends no close: only silence tells. start(ping, lost) calls ping() every
// PING_EVERY_MS; the link is lost (lost() is called once) when nothing at all came for
// LOST_AFTER_MS and the oldest unanswered ping has had ANSWER_WITHIN_MS to be answered.
// Timers of a hidden page may fire a minute apart: counting from the oldest unanswered ping,
// not from the last frame, keeps a late timer from looking like a lost link.
//
// A tablet's table socket is probed by the server every 2 s and answers each probe
// (games/live/round_trip.py): start(ping, lost, {probed: true}) pings only after
// QUIET_PING_MS with nothing heard, as the answers already tell the server the tablet is
// there. The server's half is games/live/heartbeat.py (4 s without a frame closes the socket).

// Every 2 s, not every second: with a school on one server, the pings and their answers
// were most of the frames it handled (make bench-capacity).
export const PING_EVERY_MS = 2000;
// A probed page: a probe is half a second late (or the link is gone).
export const QUIET_PING_MS = 2500;
export const LOST_AFTER_MS = 3000;
// A drop shows 3 s after the last frame heard on a page that pings every 2 s, 3.5-3.75 s on
// a probed page (its ping goes 2.5-2.75 s after it).
export const ANSWER_WITHIN_MS = 1000;

export function start(ping, lost, options) {
  const probed = Boolean(options && options.probed);
  let heardAt = performance.now();
  let pingedAt = -Infinity;
  let unansweredSince = null;
  const timer = setInterval(() => {
    const now = performance.now();
    if (unansweredSince !== null && now - unansweredSince >= ANSWER_WITHIN_MS
        && now - heardAt >= LOST_AFTER_MS) {
      clearInterval(timer);
      lost();
      return;
    }
    if (now - pingedAt >= PING_EVERY_MS && (!probed || now - heardAt >= QUIET_PING_MS)) {
      pingedAt = now;
      if (unansweredSince === null) unansweredSince = now;
      ping();
    }
  }, 250);
  return {
    heard() { heardAt = performance.now(); unansweredSince = null; },
    stop() { clearInterval(timer); },
  };
}

// No close handshake to wait for on a dead link: silence the socket's handlers and drop it.
export function abandon(socket) {
  socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
  try { socket.close(); } catch { /* already closing */ }
}
