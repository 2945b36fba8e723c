// Keeps the tablet's screen on while a game page is open: between turns a child may not touch
// the screen for a while, and a screen that dims mid-game looks as if the game stopped. The
// browser drops the lock whenever the page is hidden, so it is asked for again on return.
var lock = null;
var asking = false;

function acquire() {
  if (lock || asking || document.visibilityState !== "visible") return;
  asking = true;
  navigator.wakeLock.request("screen").then(function (sentinel) {
    lock = sentinel;
    sentinel.addEventListener("release", function () { lock = null; });
  }).catch(function () {
    // Refused for now (battery saver, say): the next tap or return to the page tries again.
  }).then(function () { asking = false; });
}

// Browsers without the Wake Lock API simply let the screen dim.
if ("wakeLock" in navigator) {
  document.addEventListener("visibilitychange", acquire);
  document.addEventListener("pointerdown", acquire);
  acquire();
}
