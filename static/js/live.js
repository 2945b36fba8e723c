// Snapclass live pages: the calm "reconnecting…" overlay and quick reconnects. The seat token
// lives only in its HttpOnly cookie, where page script cannot read it.
(function () {
  "use strict";

  var RETRY_CODES = [1006, 1011, 1012, 1013];
  // Where earlier versions kept a copy of the seat token; wiped on every page load.
  var OLD_SEAT_KEY = "snapclass.seat.";
  var sockets = [];

  if (window.htmx) {
    // Reconnect fast in a classroom (at most ~8 s apart), with jitter so thirty tablets
    // do not all knock at once after the Wi-Fi comes back.
    htmx.config.wsReconnectDelay = function (retryCount) {
      var ceiling = Math.min(500 * Math.pow(2, retryCount), 8000);
      return ceiling / 2 + Math.random() * (ceiling / 2);
    };
  }

  function overlay(show) {
    document.querySelectorAll("[data-reconnecting]").forEach(function (element) {
      element.hidden = !show;
    });
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    var wrapper = event.detail.socketWrapper;
    if (sockets.indexOf(wrapper) < 0) sockets.push(wrapper);
    overlay(false);
  });

  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code;
    if (RETRY_CODES.indexOf(code) >= 0) {
      overlay(true);
      return;
    }
    overlay(false);
  });

  // The lobby says the game has started: go to it.
  document.addEventListener("htmx:wsAfterMessage", function () {
    var go = document.querySelector("[data-go]");
    if (go) window.location.replace(go.dataset.go);
  });

  // JSON frames (errors, pongs) are for scripts, not for htmx to swap.
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var message = event.detail.message;
    if (typeof message === "string" && message.charAt(0) === "{") {
      event.preventDefault();
    }
  });

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
    } catch (error) {
      // Storage may be unavailable (private mode); then there is nothing to forget.
    }
  }

  document.addEventListener("DOMContentLoaded", forgetOldSeatCopies);
})();
