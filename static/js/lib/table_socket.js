// The game socket of a tablet at a live table, shared by every game page.
//
// Connects to root.dataset.tableSocket (the seat token travels in its HttpOnly cookie, out of
// page script's reach), answers the server's probe every 2 s and pings only when it has heard
// nothing for 2.5 s (heartbeat.js: a link that answers nothing for 3 s is lost), reconnects
// with jittered backoff cut short by a cheap probe the moment the server answers again
// (reconnector below), and shows the calm "Reconnecting…" overlay meanwhile, the game dimmed
// under it. A tap the server does not answer within ANSWER_WITHIN_MS (offline_inputs.js) puts
// the link in doubt at once, without waiting for the heartbeat. While the link is down or in
// doubt every tap is answered at once: a race (a slap, a play, a catch) is dropped and the
// child told it cannot count; any other input is kept, the child told so, and sent again when
// the link answers or after the reconnect,
// however long the outage (the server applies a client id once); one the game can no longer
// take by then is told to the child as not counted. "Saving…" shows while the server is still
// storing an input. It asks for a fresh view when the tablet wakes up, and stops for good on
// the server's final close codes (removed, no seat, flood, table not playing). A teacher page
// watching a table uses it too (no seat, no overlay): it waits through "not playing" and stops
// once its element has left the page.
import { backoffMs } from "./backoff.js";
import { closeCodes } from "./close_codes.js";
import { abandon, start as startHeartbeat } from "./heartbeat.js";
import { ANSWER_WITHIN_MS, isRace, sortOut } from "./offline_inputs.js";
import * as sound from "./sound.js";

// The server's final words for a seat: flood, no seat, removed, table not playing, and
// REPLACED: the seat was opened on another tablet; said calmly, never retried (no tug of war).
// A page watching a table (no seat) stops on the first two only.
var SEATED_STOP = ["POLICY", "NO_SEAT", "REMOVED", "NOT_PLAYING", "REPLACED"];
var WATCHING_STOP = ["POLICY", "FORBIDDEN"];
// Between attempts (backoff.js): half a second, then doubling up to 8 s.
var RECONNECT = { firstMs: 500, maxMs: 8000 };
// A handshake that has not finished by then is stuck (a link that takes packets and answers none).
var CONNECT_WITHIN_MS = 4000;
// The first frame (the table's view) comes once the server has joined the socket to its
// table, which waits on its database: seconds when a class joins a busy school, and until
// then the server reads nothing the page sends, so it answers no ping. The heartbeat starts
// with that first frame; a link that brings none by then is stuck.
var JOINED_WITHIN_MS = 15000;
// The server's liveness address: no database, no session, never cached.
var PROBE_URL = "/healthz";
var PROBE_EVERY_MS = 500;
var PROBE_TIMEOUT_MS = 1500;
// An input the server answered "not saved" is sent again this often until it is stored.
var RESEND_NOT_SAVED_MS = 2000;
// How long the answer to a tap made offline stays on the screen.
var OFFLINE_ANSWER_MS = 4000;
// The refusals a game tells the child as they come, in the server's own words (its message).
export const TOLD_AS_THEY_COME = ["rejected", "paused", "slow_down", "not_saved"];
// Every link of the page, with a log of what it did when: for tests and for a curious teacher.
export const links = [];

function note(link, what, detail) {
  link.log.push({ at: Math.round(performance.now()), what: what, detail: detail || "" });
  if (link.log.length > 200) link.log.shift();
}

// Between attempts: jittered backoff (thirty tablets must not all knock at once when the
// Wi-Fi comes back), and meanwhile a probe every PROBE_EVERY_MS. When the server answers a
// probe after not answering, the next attempt goes at once instead of sleeping out the
// backoff. A server that answers but refuses the socket (its Redis is down) gets no shortcut
// and no more probes until the next attempt: the backoff paces those.
function reconnector(link, attempt) {
  var retries = 0;
  var timer = null;
  var prober = null;
  var probing = false;
  var unreachable = false;

  function clear() {
    if (timer !== null) clearTimeout(timer);
    if (prober !== null) clearInterval(prober);
    timer = prober = null;
  }
  function go(why) {
    clear();
    note(link, "attempt", why);
    attempt();
  }
  function probe() {
    if (probing) return;
    probing = true;
    var controller = new AbortController();
    var abort = setTimeout(function () { controller.abort(); }, PROBE_TIMEOUT_MS);
    fetch(PROBE_URL, { cache: "no-store", credentials: "same-origin", signal: controller.signal })
      .then(function (response) { return response.ok; }, function () { return false; })
      .then(function (answered) {
        clearTimeout(abort);
        probing = false;
        if (timer === null) return;  // an attempt went meanwhile
        note(link, answered ? "probe-answered" : "probe-unanswered");
        if (!answered) { unreachable = true; return; }
        if (unreachable) { unreachable = false; go("probe"); return; }
        clearInterval(prober);
        prober = null;
      });
  }
  return {
    later: function () {
      clear();
      var delay = backoffMs(retries, RECONNECT);
      retries += 1;
      note(link, "backoff", String(Math.round(delay)));
      timer = setTimeout(function () { go("backoff"); }, delay);
      prober = setInterval(probe, PROBE_EVERY_MS);
      probe();
    },
    now: function (why) { if (timer !== null) go(why); },
    opened: function () { clear(); retries = 0; unreachable = false; },
    waiting: function () { return timer !== null; },
  };
}

export function connectTable(root, handlers) {
  var socket = null;
  var beat = null;
  var connectTimer = null;
  var seq = 0;
  var version = -1;
  var epoch = 0;
  // Each input carries this page's id and its number: sent twice, it is applied once.
  var pageId = Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
  // seq -> {frame, kind, late, saving, told}: inputs the server has not answered yet. "late":
  // sent (again) after a reconnect, so a refusal means the game moved on while the tablet was
  // away; "told": the child has heard what becomes of it offline.
  var unanswered = {};
  // The tap the server must answer soon: {timer}, or null.
  var watch = null;
  // A tap went unanswered and nothing has been heard since: the Wi-Fi may be gone, or the
  // server busy for a moment; from the tablet the two look the same.
  var doubt = false;
  var rttMs = 0;
  var pings = {};
  var stopped = false;
  var lastError = "";
  var seated = Boolean(root.dataset.seatCode);
  var codes = closeCodes();
  var stopCodes = (seated ? SEATED_STOP : WATCHING_STOP).map(function (name) { return codes[name]; });
  var reconnecting = seated ? document.querySelector("[data-reconnecting]") : null;
  var saving = seated ? document.querySelector("[data-saving]") : null;
  var offlineAnswer = seated ? document.querySelector("[data-offline-answer]") : null;
  var offlineTimer = null;
  var link = { url: root.dataset.tableSocket, log: [], opens: 0 };
  // The game of the session this page was drawn for: a socket opened after Play again
  // (the tablet was away) is told to load the new one.
  var gameMark = seated ? document.querySelector("[data-play-game]") : null;
  var gameNumber = gameMark ? gameMark.dataset.playGame : "";
  var again = reconnector(link, open);
  links.push(link);

  function send(frame) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame));
  }

  function ping() {
    seq += 1;
    pings[seq] = performance.now();
    send({ type: "ping", seq: seq });
  }

  // A class game that is over (not ended by the teacher): the tablet waits here, and the
  // teacher's Play again brings it into the next game (NEXT_GAME, no code to type).
  var nextGame = seated ? document.querySelector("[data-over-next]") : null;
  function showNextGame(view) {
    if (nextGame && view) nextGame.hidden = !(view.phase === "game_over" && !view.ended);
  }

  function showLost(lost) {
    if (reconnecting) reconnecting.hidden = !lost;
    // What the tablet shows is from before the link went: dimmed, so no child acts on it.
    if (seated) root.toggleAttribute("data-link-lost", lost);
  }

  function showSaving() {
    if (!saving) return;
    saving.hidden = !Object.keys(unanswered).some(function (key) { return unanswered[key].saving; });
  }

  function linkUp() {
    return socket !== null && socket.readyState === WebSocket.OPEN;
  }

  // What becomes of a tap made offline, in the child's words: "race" (it cannot count) or
  // "kept" (it goes when the tablet is back).
  function tellOffline(fate) {
    note(link, "told", fate);
    if (!offlineAnswer || !fate) return;
    offlineAnswer.textContent = fate === "race" ? offlineAnswer.dataset.race : offlineAnswer.dataset.kept;
    offlineAnswer.hidden = false;
    clearTimeout(offlineTimer);
    offlineTimer = setTimeout(function () { offlineAnswer.hidden = true; }, OFFLINE_ANSWER_MS);
  }

  // The link is down: the races the server has not got are dropped (sent later they would
  // come after the race), the rest wait for the reconnect; the child hears of each at once.
  function sortOutUnanswered() {
    var sorted = sortOut(unanswered);
    sorted.dropped.forEach(function (key) { delete unanswered[key]; });
    sorted.kept.forEach(function (key) { unanswered[key].told = true; });
    if (sorted.tell) tellOffline(sorted.tell);
    showSaving();
  }

  // A tap just sent: the server answers a ping straight from its socket, so no answer within
  // ANSWER_WITHIN_MS puts the link in doubt.
  function watchAnswer() {
    if (watch !== null) return;  // an earlier tap's ping asks already
    ping();
    watch = { timer: setTimeout(function () { watch = null; doubted(); }, ANSWER_WITHIN_MS) };
  }

  // The child hears at once what becomes of the tap, as if the link were down. The socket
  // stays open: a server busy for a moment is not also handed a reconnect from every tablet
  // that tapped (each costs it a seat check and a whole view). The heartbeat finds a link that
  // is really gone within 3 s; any frame before that clears the doubt.
  function doubted() {
    doubt = true;
    note(link, "doubt");
    showLost(true);
    sortOutUnanswered();
  }

  // Any frame at all after the tap is a link that works: the ping's pong, the tap's answer,
  // and also a "slow down" that refused the ping of a child tapping very fast. Inputs kept
  // while in doubt go now (the server applies a client id once).
  function heardSinceTap() {
    if (watch !== null) {
      clearTimeout(watch.timer);
      watch = null;
    }
    if (!doubt) return;
    doubt = false;
    note(link, "heard");
    showLost(false);
    resendUnanswered();
  }

  function lost(why) {
    // The link is gone (closed, silent or stuck connecting): overlay, then reconnect.
    if (watch !== null) { clearTimeout(watch.timer); watch = null; }
    doubt = false;
    if (beat) { beat.stop(); beat = null; }
    if (connectTimer !== null) { clearTimeout(connectTimer); connectTimer = null; }
    if (socket) { abandon(socket); socket = null; }
    note(link, "lost", why);
    if (stopped) return;
    showLost(true);
    sortOutUnanswered();
    again.later();
  }

  function open() {
    if (!root.isConnected) { stopped = true; return; }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    // Held to the heartbeat (the server closes the socket after 4 s of silence); a page that
    // draws points and ranks asks to be told what it may show (handlers.onStandings).
    var ask = "?heartbeat=1" + (handlers.onStandings ? "&standings=1" : "") + (gameNumber ? "&game=" + gameNumber : "");
    var current = socket = new WebSocket(scheme + location.host + root.dataset.tableSocket + ask);
    connectTimer = setTimeout(function () { connectTimer = null; lost("connect-timeout"); }, CONNECT_WITHIN_MS);
    current.onopen = function () {
      clearTimeout(connectTimer);
      connectTimer = setTimeout(function () { connectTimer = null; lost("join-timeout"); }, JOINED_WITHIN_MS);
      again.opened();
      link.opens += 1;
      note(link, "open");
      showLost(false);
      resendUnanswered();
    };
    current.onmessage = function (message) {
      if (!root.isConnected) { stopped = true; current.close(); return; }
      if (beat) {
        beat.heard();
      } else {
        clearTimeout(connectTimer);
        connectTimer = null;
        // Joined: probed by the server every 2 s (?heartbeat=1), it pings only when it hears
        // nothing.
        beat = startHeartbeat(ping, function () { lost("silent"); }, { probed: true });
      }
      receive(JSON.parse(message.data));
    };
    current.onclose = function (event) {
      if (connectTimer !== null) { clearTimeout(connectTimer); connectTimer = null; }
      // The teacher pressed Play again: the seat's table deals a new game, so the tablet
      // loads its page (same address, same seat cookie: no code to type).
      if (seated && event.code === codes.NEXT_GAME) {
        stopped = true;
        if (beat) beat.stop();
        note(link, "next-game");
        location.reload();
        return;
      }
      if (stopCodes.indexOf(event.code) >= 0) {
        stopped = true;
        if (beat) beat.stop();
        note(link, "stopped", String(event.code));
        if (handlers.onStop) handlers.onStop(lastError);
        return;
      }
      lost("closed " + event.code);
    };
  }

  function receive(frame) {
    heardSinceTap();
    if (frame.type === "probe") {
      // The server times its own round trip to this tablet (games/live/round_trip.py) and
      // judges reaction times by it: answer at once, before anything else.
      send({ type: "ping", seq: frame.seq });
    } else if (frame.type === "state") {
      // Views are whole: an older one is stale, unless a new owner of the table sent it
      // (a higher epoch after a takeover).
      if ((frame.epoch || 0) < epoch) return;
      if ((frame.epoch || 0) === epoch && frame.version < version) return;
      epoch = frame.epoch || 0;
      version = frame.version;
      handlers.onState(frame.view, frame.events || []);
      if (seated && frame.view) sound.forEvents(frame.events, frame.view.you);
      // For page parts outside the game's own script (the adaptive level badge).
      root.dispatchEvent(new CustomEvent("snapclass:view", { detail: frame.view, bubbles: true }));
      showNextGame(frame.view);
    } else if (frame.type === "motion") {
      // Moving things between changes (physics): only for the version it moves on from.
      if (frame.version === version && (frame.epoch || 0) === epoch && handlers.onMotion) handlers.onMotion(frame);
    } else if (frame.type === "standings") {
      // The teacher's sound switch travels with the standings (off unless turned on).
      if (seated) sound.setEnabled(frame.sound === true);
      if (handlers.onStandings) handlers.onStandings(frame);
    } else if (frame.type === "ack") {
      delete unanswered[frame.seq];
      showSaving();
    } else if (frame.type === "pending") {
      // The server has the input and is still storing it: the ack (or an error) follows.
      if (unanswered[frame.seq]) unanswered[frame.seq].saving = true;
      showSaving();
    } else if (frame.type === "pong") {
      var sentAt = pings[frame.seq];
      delete pings[frame.seq];
      if (sentAt !== undefined) rttMs = Math.round(performance.now() - sentAt);
    } else if (frame.type === "error") {
      answeredWithError(frame);
    }
  }

  function answeredWithError(frame) {
    var entry = frame.seq !== undefined ? unanswered[frame.seq] : undefined;
    if (entry && frame.code === "not_saved") {
      // Not stored (the database is away): keep it and try again; the child sees "Saving…".
      entry.saving = true;
      showSaving();
      setTimeout(function () { if (unanswered[frame.seq] === entry) send(entry.frame); }, RESEND_NOT_SAVED_MS);
      return;
    }
    if (entry) delete unanswered[frame.seq];
    showSaving();
    lastError = frame.message;
    if (entry && entry.late && frame.code === "rejected" && saving && saving.dataset.notCounted) {
      // Tapped before the link came back, refused now: the game moved on meanwhile.
      frame = { type: "error", code: "rejected", seq: frame.seq, message: saving.dataset.notCounted };
    }
    if (handlers.onError) handlers.onError(frame);
  }

  function resendUnanswered() {
    // The link dropped before the server answered, or the input was made while it was down:
    // send each again as it was (the server ignores any it had already stored).
    Object.keys(unanswered).forEach(function (key) {
      unanswered[key].late = true;
      send(unanswered[key].frame);
    });
  }

  window.addEventListener("online", function () { again.now("online"); });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    if (socket && socket.readyState === WebSocket.OPEN) send({ type: "sync", seq: ++seq });
    else again.now("visible");
  });
  open();

  return {
    act: function (action) {
      seq += 1;
      var frame = { type: "act", seq: seq, action: action, cid: pageId + ":" + seq };
      var race = isRace(action.kind);
      note(link, "act", action.kind);
      if ((!linkUp() || doubt) && seated) {
        // Offline: the child hears at once what becomes of the tap. A race is not kept.
        note(link, "offline-" + (race ? "dropped" : "kept"), action.kind);
        if (!race) unanswered[seq] = { frame: frame, kind: action.kind, late: false, saving: false, told: true };
        tellOffline(race ? "race" : "kept");
        return;
      }
      unanswered[seq] = { frame: frame, kind: action.kind, late: false, saving: false, told: false };
      send(frame);
      if (seated) watchAnswer();
    },
    rtt: function () { return rttMs; },
  };
}
