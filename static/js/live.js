// Snapclass live pages: the calm "reconnecting…" overlay and quick reconnects. The seat token
// lives only in its HttpOnly cookie, where page script cannot read it.
import { backoffMs } from "./lib/backoff.js";
import { closeCodes } from "./lib/close_codes.js";
import { abandon, start as startHeartbeat } from "./lib/heartbeat.js";

var RETRY_CODES = [1006, 1011, 1012, 1013];
// Where earlier versions kept a copy of the seat token; wiped on every page load.
var OLD_SEAT_KEY = "snapclass.seat.";
var sockets = [];

if (window.htmx) {
  // Back within a second of the server answering: these pages (lobby, console, projector)
  // keep one socket each, so a knock every 0.5-1 s while the server is away costs it
  // nothing, and the jitter spreads a class's lobby over that second. (Game tablets back
  // off further and probe instead: table_socket.js.)
  window.htmx.config.wsReconnectDelay = function (retryCount) {
    return backoffMs(retryCount, { firstMs: 250, maxMs: 1000 });
  };
}

function overlay(show) {
  document.querySelectorAll("[data-reconnecting]").forEach(function (element) {
    element.hidden = !show;
  });
}

// The heartbeat (heartbeat.js) of one htmx socket: a ping every 2 s; a link silent for 3 s is
// dropped and opened again, with the overlay meanwhile (a Wi-Fi drop never closes a socket).
function watch(element, wrapper, socket) {
  unwatch(element);
  var seq = 0;
  var beat = startHeartbeat(
    function () {
      seq += 1;
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping", seq: seq }));
    },
    function () {
      element.snapclassBeat = null;
      overlay(true);
      // Its close would come after Chromium's closing handshake timeout, and htmx would
      // then open yet another socket: forget this one and open the next now.
      abandon(socket);
      wrapper.reconnect();
    }
  );
  element.snapclassBeat = { beat: beat, socket: socket };
}

function unwatch(element, socket) {
  var watched = element.snapclassBeat;
  if (!watched || (socket && watched.socket !== socket)) return;
  watched.beat.stop();
  element.snapclassBeat = null;
}

document.addEventListener("htmx:wsOpen", function (event) {
  var wrapper = event.detail.socketWrapper;
  if (sockets.indexOf(wrapper) < 0) sockets.push(wrapper);
  overlay(false);
  watch(event.target, wrapper, event.detail.event.target);
});

document.addEventListener("htmx:wsClose", function (event) {
  var code = event.detail.event.code;
  unwatch(event.target, event.detail.event.target);
  // The server closed a socket it heard nothing from for 4 s (games/live/heartbeat.py): a
  // page whose timers were held up, or a link that came back. Not a final word: connect again.
  if (code === closeCodes().SILENT) {
    overlay(true);
    event.detail.socketWrapper.reconnect();
    return;
  }
  if (RETRY_CODES.indexOf(code) >= 0) {
    overlay(true);
    return;
  }
  overlay(false);
  // A teacher page the teacher may no longer see (disabled, or a share revoked): load it
  // again, and the site answers with the log-in page or "not found".
  if (code === closeCodes().FORBIDDEN && event.target.hasAttribute("data-reload-when-forbidden")) {
    window.location.reload();
  }
});

// The lobby says the game has started: go to it.
document.addEventListener("htmx:wsAfterMessage", function () {
  var go = document.querySelector("[data-go]");
  if (go) window.location.replace(go.dataset.go);
});

// JSON frames (errors, pongs) are for scripts, not for htmx to swap.
document.addEventListener("htmx:wsBeforeMessage", function (event) {
  var watched = event.target.snapclassBeat;
  if (watched) watched.beat.heard();
  var message = event.detail.message;
  if (typeof message === "string" && message.charAt(0) === "{") {
    event.preventDefault();
  }
});

// hx-disabled-elt="#id" holds a button disabled while a request is on its way (the
// console's Start while a seat's option is being saved). A live redraw meanwhile puts a
// fresh, enabled copy of that button in its place, which htmx does not know of: hold the
// copy too, and free it once the last such request is answered. (The answer's own swap
// comes first, so a button the server drew disabled stays so.)
var inFlight = {}; // "#id" -> requests on their way that hold it
var HELD = "data-held-by-request";

function heldSelector(event) {
  var selector = event.detail.elt && event.detail.elt.getAttribute("hx-disabled-elt");
  return selector && /^#[\w-]+$/.test(selector) ? selector : null;
}

function holdCopies() {
  Object.keys(inFlight).forEach(function (selector) {
    var button = document.querySelector(selector);
    if (inFlight[selector] > 0 && button && !button.disabled) {
      button.disabled = true;
      button.setAttribute(HELD, "");
    }
  });
}

// Counted at beforeSend (nothing cancels a request after it) and given back at the
// request's loadend, which comes after htmx's swap and whether it was answered, failed,
// aborted or timed out, even if a redraw took its form out of the page meanwhile.
document.addEventListener("htmx:beforeSend", function (event) {
  var selector = heldSelector(event);
  var xhr = event.detail.xhr;
  if (!selector || !xhr) return;
  inFlight[selector] = (inFlight[selector] || 0) + 1;
  xhr.addEventListener("loadend", function () {
    inFlight[selector] -= 1;
    if (inFlight[selector] > 0) return;
    document.querySelectorAll(selector + "[" + HELD + "]").forEach(function (button) {
      button.disabled = false;
      button.removeAttribute(HELD);
    });
  });
});
document.addEventListener("htmx:load", holdCopies);

function reconnectNow() {
  sockets.forEach(function (wrapper) {
    // A sleeping tablet may hold a dead socket that never reported closing.
    wrapper.reconnect();
  });
}
window.addEventListener("online", reconnectNow);
document.addEventListener("visibilitychange", function () {
  if (document.visibilityState === "visible" && navigator.onLine) {
    var overlayShown = document.querySelector("[data-reconnecting]:not([hidden])");
    if (overlayShown) reconnectNow();
  }
});

function forgetOldSeatCopies() {
  try {
    Object.keys(localStorage).forEach(function (key) {
      if (key.indexOf(OLD_SEAT_KEY) === 0) localStorage.removeItem(key);
    });
  } catch {
    // Storage may be unavailable (private mode); then there is nothing to forget.
  }
}

// A tap on Join is answered with the lobby itself, at the join form's address: show the
// lobby's, so that a reload asks for the lobby instead of posting the form again.
function showPageUrl() {
  var page = document.querySelector("[data-page-url]");
  if (page && window.location.pathname !== page.dataset.pageUrl) {
    window.history.replaceState(window.history.state, "", page.dataset.pageUrl);
  }
}

document.addEventListener("DOMContentLoaded", forgetOldSeatCopies);
document.addEventListener("DOMContentLoaded", showPageUrl);
