// How to play: a short demo of a game's core move, pictures first and a line of words a
// 7-year-old reads. A tablet plays it by itself on a child's first game of it (the server
// keeps that per student, the tablet per device for guests); a "?" button plays it again;
// the teacher shows it on the projector or the console before Start.
//
// A demo is a list of steps, each {key, ms, words?}: the game's own module (<game>_how_to_play.js)
// draws the scene once and moves it on at every step (the stage's data-step). The page holds
// what the server knows (the how-to-play JSON) and the words, translated, one element each
// ([data-htp-word], the game's gamesite/<game>/_how_to_play.html). Only timers move it, so a
// test reads the schedule instead of waiting for it.

// Every demo is over within this: a child watches it, then plays.
export const MAX_DEMO_MS = 20000;

// Where a tablet keeps what it has seen (guests) and whether it may start the demo by itself.
export const SEEN_PREFIX = "snapclass.how-to-play.";
export const AUTO_KEY = SEEN_PREFIX + "auto";

// ---- pure parts ------------------------------------------------------------------------------

// When each step starts and ends, and the whole demo's length.
export function schedule(steps) {
  var at = 0;
  var rows = steps.map(function (step) {
    var row = { key: step.key, start: at, end: at + step.ms };
    at += step.ms;
    return row;
  });
  return { steps: rows, total: at };
}

// The index of the step showing at ``ms`` after the start; -1 once the demo is over.
export function stepAt(plan, ms) {
  for (var i = 0; i < plan.steps.length; i += 1) {
    if (ms >= plan.steps[i].start && ms < plan.steps[i].end) return i;
  }
  return -1;
}

export function seenKey(game) {
  return SEEN_PREFIX + game;
}

function read(storage, key) {
  try {
    return storage ? storage.getItem(key) : null;
  } catch {
    return null;  // storage refused (private mode): as if nothing was kept
  }
}

// Whether this page starts the demo by itself. ``page.first`` is the server's answer for a
// student (true on their first game of it), null for a guest, whose tablet keeps it.
export function startsByItself(page, storage) {
  if (read(storage, AUTO_KEY) === "off") return false;
  if (page.first === true || page.first === false) return page.first;
  return read(storage, seenKey(page.game)) === null;
}

export function rememberSeen(storage, game) {
  try {
    if (storage) storage.setItem(seenKey(game), "1");
  } catch {
    // Nothing kept: the demo plays again next time, which does no harm.
  }
}

// ---- the overlay -----------------------------------------------------------------------------

// What a browser test reads: the demo showing now (null when none), its schedule, the step
// showing and how many times a demo started on this page; seek(i) holds it at step i (for a
// test's screenshot, instead of waiting for the timers).
export const shown = { demo: null, plan: null, step: -1, plays: 0, seek: null };

function storageOrNull() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// The page's words for the demo, by key.
function pageWords() {
  var words = {};
  document.querySelectorAll("[data-htp-word]").forEach(function (node) {
    words[node.dataset.htpWord] = node.textContent;
  });
  return words;
}

// The page's how-to-play data and overlay, or null on a page without them.
function pageParts() {
  if (typeof document === "undefined") return null;  // imported outside a page (Node tests)
  var data = document.getElementById("how-to-play");
  var overlay = document.querySelector("[data-how-to-play]");
  if (!data || !overlay) return null;
  var page = JSON.parse(data.textContent);
  page.words = pageWords();
  return {
    page: page,
    overlay: overlay,
    stage: overlay.querySelector("[data-htp-stage]"),
    caption: overlay.querySelector("[data-htp-caption]"),
    dots: overlay.querySelector("[data-htp-dots]"),
    skip: overlay.querySelector("[data-htp-skip]"),
  };
}

// Plays ``demo`` ({game, steps(context), draw(stage, context, words)}) in the page's overlay.
// ``timers`` is setTimeout/clearTimeout unless a test brings its own.
export function createPlayer(parts, demo, timers) {
  var clock = timers || { set: setTimeout.bind(window), clear: clearTimeout.bind(window) };
  var pending = [];
  var returnFocus = null;

  function stop() {
    pending.forEach(clock.clear);
    pending = [];
    parts.overlay.hidden = true;
    parts.stage.textContent = "";
    shown.demo = null;
    shown.step = -1;
    document.documentElement.classList.remove("htp-showing");
    if (returnFocus && document.contains(returnFocus)) returnFocus.focus();
  }

  function show(index, steps, context) {
    shown.step = index;
    parts.stage.dataset.step = steps[index].key;
    parts.caption.textContent = parts.page.words[steps[index].words || steps[index].key] || "";
    Array.prototype.forEach.call(parts.dots.children, function (dot, i) {
      dot.classList.toggle("is-now", i === index);
      dot.classList.toggle("is-done", i < index);
    });
    if (demo.step) demo.step(parts.stage, steps[index], context);
  }

  parts.skip.addEventListener("click", stop);
  parts.overlay.addEventListener("keydown", function (event) {
    if (event.key === "Escape") stop();
  });

  return {
    play: function (context) {
      stop();
      var steps = demo.steps(context);
      var plan = schedule(steps);
      returnFocus = document.activeElement;
      parts.dots.textContent = "";
      steps.forEach(function () { parts.dots.appendChild(document.createElement("span")); });
      demo.draw(parts.stage, context, parts.page.words);
      parts.overlay.hidden = false;
      document.documentElement.classList.add("htp-showing");
      shown.demo = demo.game;
      shown.plan = plan;
      shown.plays += 1;
      show(0, steps, context);
      plan.steps.forEach(function (row, index) {
        if (index > 0) pending.push(clock.set(function () { show(index, steps, context); }, row.start));
      });
      pending.push(clock.set(stop, plan.total));
      shown.seek = function (index) {
        pending.forEach(clock.clear);
        pending = [];
        show(index, steps, context);
      };
      parts.skip.focus();
      return plan;
    },
    stop: stop,
  };
}

// A game page's demo: the first call (with the first view from the table) starts it if this
// is the child's first game of it; every call keeps the view, so "?" shows the table's level.
export function tabletHowToPlay(demo) {
  var player = null;
  var parts = null;
  var view = null;

  function context() {
    return demo.context(parts.page, view);
  }

  return function (next) {
    view = next;
    if (parts) return;
    parts = pageParts();
    if (!parts) return;
    player = createPlayer(parts, demo);
    var open = document.querySelector("[data-how-to-play-open]");
    if (open) open.addEventListener("click", function () { player.play(context()); });
    var storage = storageOrNull();
    if (startsByItself(parts.page, storage)) {
      rememberSeen(storage, parts.page.game);
      player.play(context());
    }
  };
}

// The teacher's "Show how to play" (console and projector): the session's game's demo, at the
// level of its settings; null on any other page. A console asks a
// projector page of the session open in this browser (a BroadcastChannel) to play it there,
// and plays it on its own screen when none answers.
export const ANSWER_WAIT_MS = 400;

export function teacherHowToPlay(demo, timers) {
  var parts = pageParts();
  if (!parts || parts.page.game !== demo.game || parts.page.where === "tablet") return null;
  var clock = timers || { set: setTimeout.bind(window), clear: clearTimeout.bind(window) };
  var player = createPlayer(parts, demo, timers);
  var here = function () { return player.play(demo.context(parts.page, null)); };
  var channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(parts.page.channel) : null;
  var note = document.querySelector("[data-htp-note]");
  var waiting = null;

  if (channel) {
    channel.addEventListener("message", function (event) {
      var message = event.data || {};
      if (message.ask === "show" && parts.page.where === "projector") {
        // Answered before the demo starts: building it can take a slow laptop longer than
        // the console waits, which would then play it on its own screen too.
        channel.postMessage({ shown: "projector" });
        here();
      } else if (message.shown && waiting !== null) {
        clock.clear(waiting);
        waiting = null;
        if (note) note.textContent = parts.page.words.on_projector;
      }
    });
  }

  function show() {
    if (note) note.textContent = "";
    if (parts.page.where !== "console" || !channel) return here();
    channel.postMessage({ ask: "show" });
    clock.clear(waiting);
    waiting = clock.set(function () {
      waiting = null;
      here();
    }, ANSWER_WAIT_MS);
    return null;
  }

  document.querySelectorAll("[data-how-to-play-open]").forEach(function (button) {
    button.addEventListener("click", show);
  });
  return { show: show, stop: player.stop };
}
