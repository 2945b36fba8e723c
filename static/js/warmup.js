// The warm-up page (templates/play/warmup.html): 20 cards, tap each as soon as it appears.
// Onset is the performance.now() of the first frame after the card is in the DOM (two
// requestAnimationFrame callbacks, as the games measure it); the tap is the pointerdown
// event's timeStamp on the same clock. A tap before the card is "too soon" and the card
// waits again; a card left 3 s is a lapse (sent empty).
import { csrfToken, deviceFields, measureFrameInterval, postFields } from "./lib/device.js";
import { fmt } from "./lib/format.js";
import { foreperiodMs, reactionMs, rtsField } from "./lib/warmup.js";

const root = document.querySelector("[data-warmup]");
if (root) start(root);

function start(root) {
  const words = JSON.parse(document.getElementById("warmup-words").textContent);
  const cards = Number(root.dataset.cards);
  const waitMs = Number(root.dataset.waitMs);
  const el = {
    pad: root.querySelector("[data-pad]"),
    card: root.querySelector("[data-card]"),
    say: root.querySelector("[data-say]"),
    count: root.querySelector("[data-count]"),
    start: root.querySelector("[data-start]"),
    go: root.querySelector("[data-go]"),
    skip: root.querySelector("[data-skip]"),
  };
  const frameMs = measureFrameInterval(requestAnimationFrame);
  const rts = [];
  let phase = "idle"; // idle, waiting, shown, sending, done
  let timer = null;
  let onset = null;

  function showCount() {
    el.count.textContent = fmt(words.count, { n: Math.min(rts.length + 1, cards), total: cards });
  }

  function wait() {
    phase = "waiting";
    onset = null;
    el.card.hidden = true;
    showCount();
    timer = setTimeout(show, foreperiodMs(Math.random));
  }

  function show() {
    phase = "shown";
    el.card.hidden = false;
    requestAnimationFrame(() => {
      requestAnimationFrame(() => {
        if (phase === "shown") onset = performance.now();
      });
    });
    timer = setTimeout(() => answer(null), waitMs);
  }

  function answer(rt) {
    clearTimeout(timer);
    rts.push(rt);
    el.card.hidden = true;
    el.say.textContent = rt === null ? words.missed : words.tap;
    if (rts.length < cards) wait();
    else send(rts);
  }

  el.pad.addEventListener("pointerdown", (event) => {
    if (phase === "waiting" || (phase === "shown" && onset === null)) {
      clearTimeout(timer);
      el.say.textContent = words.too_soon;
      wait();
    } else if (phase === "shown") {
      answer(reactionMs(onset, event.timeStamp));
    }
  });

  el.start.addEventListener("click", () => {
    el.start.hidden = true;
    el.say.textContent = words.tap;
    wait();
  });

  el.skip.addEventListener("click", () => {
    clearTimeout(timer);
    send([]);
  });

  el.go.addEventListener("click", () => {
    if (phase === "done") window.location.assign(root.dataset.next);
    else send(rts.length === cards ? rts : []);
  });
  // Its buttons answer from here on (a tap on a slow tablet before this is a tap on nothing).
  root.dataset.ready = "";

  async function send(answers) {
    phase = "sending";
    el.card.hidden = true;
    el.start.hidden = true;
    el.go.hidden = true;
    el.skip.hidden = true;
    el.say.textContent = words.saving;
    const fields = { ...deviceFields(window.screen, (await frameMs) ?? 16.7), rts: rtsField(answers) };
    let result = { ok: false, answer: {} };
    try {
      result = await postFields(root.dataset.url, fields, csrfToken(document.body));
    } catch {
      result = { ok: false, answer: {} };
    }
    if (!result.ok) {
      phase = "failed";
      el.say.textContent = words.not_saved;
      el.go.hidden = false;
      return;
    }
    if (!answers.length) {
      window.location.assign(root.dataset.next);
      return;
    }
    phase = "done";
    el.count.textContent = "";
    el.say.textContent = words.done;
    el.go.hidden = false;
    el.go.focus();
  }
}
