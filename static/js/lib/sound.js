// Short sound cues made in the browser (Web Audio oscillators: nothing is downloaded).
//
// Tablets: off unless the teacher switches sound on for the session on the console (the
// table socket passes the switch on, and calls cue() for the game's events; see
// table_socket.js). The projector: a "Sound" button the teacher presses once (browsers play
// nothing before a tap or click on the page), then it plays the countdown when a game starts
// and a little fanfare when it ends. A browser without Web Audio simply stays quiet.
var context = null;
var enabled = false;

// Each cue: notes of [frequency Hz, start s, length s, wave], quiet and short.
var CUES = {
  flip: [[660, 0, 0.07, "triangle"]],
  first: [[784, 0, 0.09, "sine"], [1047, 0.09, 0.16, "sine"]],
  caught: [[523, 0, 0.08, "sine"], [659, 0.07, 0.08, "sine"], [784, 0.14, 0.14, "sine"]],
  over: [[523, 0, 0.16, "triangle"], [659, 0.16, 0.16, "triangle"], [784, 0.32, 0.16, "triangle"], [1047, 0.48, 0.45, "triangle"]],
  tick: [[440, 0, 0.12, "sine"]],
  go: [[880, 0, 0.4, "sine"]],
};

function audio() {
  if (context) return context;
  var Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try { context = new Context(); } catch { context = null; }
  return context;
}

// Browsers start an audio context suspended until the page is tapped: wake it on a tap.
function unlock() {
  if (!enabled) return;
  var ctx = audio();
  if (ctx && ctx.state === "suspended") ctx.resume();
}
document.addEventListener("pointerdown", unlock, true);
document.addEventListener("keydown", unlock, true);

function play(notes, offset) {
  var ctx = audio();
  if (!ctx) return false;
  if (ctx.state === "suspended") ctx.resume();
  var start = ctx.currentTime + 0.01 + (offset || 0);
  notes.forEach(function (note) {
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = note[3];
    osc.frequency.value = note[0];
    var at = start + note[1];
    var end = at + note[2];
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, end);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(end + 0.02);
  });
  return true;
}

// What was played, for tests and the curious: [{cue, at}] (the last 50).
export const played = [];

export function cue(name) {
  if (!enabled || !CUES[name]) return false;
  played.push({ cue: name, at: Math.round(performance.now()) });
  if (played.length > 50) played.shift();
  return play(CUES[name]);
}

export function countdown() {
  if (!enabled) return false;
  played.push({ cue: "countdown", at: Math.round(performance.now()) });
  [0, 1, 2].forEach(function (second) { play(CUES.tick, second); });
  play(CUES.go, 3);
  return true;
}

export function isEnabled() { return enabled; }

export function setEnabled(on) {
  enabled = Boolean(on);
  document.documentElement.toggleAttribute("data-sound-on", enabled);
  if (enabled) unlock();
}

// Which of a table's events this tablet hears: its own wins and catches, every flip and
// the end. ``you`` is this tablet's seat in the view.
export function forEvents(events, you) {
  (events || []).forEach(function (event) {
    if (event.kind === "flip" || event.kind === "go" || event.kind === "reveal") cue("flip");
    else if (event.kind === "resolved" && you !== undefined && event.winner === you) cue("first");
    else if (event.kind === "caught" && you !== undefined && event.seat === you) cue("caught");
    else if (event.kind === "game_over") cue("over");
  });
}

// The projector: a button turns sound on; the live fragment says what happens.
function projector() {
  var button = document.querySelector("[data-sound-toggle]");
  if (!button) return;
  var last = null;
  function state() {
    var status = document.querySelector("[data-projector-state]");
    if (status) return status.dataset.projectorState + ":" + (status.dataset.gameNumber || "");
    return document.querySelector(".celebration") ? "ended:" : "";
  }
  function changed() {
    var now = state();
    if (now === last) return;
    var before = last;
    last = now;
    if (before === null) return;  // the page just loaded: nothing started or ended now
    if (/^running:/.test(now) && !/^paused:/.test(before || "")) countdown();
    else if (/^(game-over|ended):/.test(now)) cue("over");
  }
  button.addEventListener("click", function () {
    setEnabled(!enabled);
    button.setAttribute("aria-pressed", enabled ? "true" : "false");
  });
  changed();
  new MutationObserver(changed).observe(document.body, { childList: true, subtree: true });
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", projector);
else projector();
