// Palm Strike on a tablet: draws the table from the server's view and measures reaction time.
//
// Reaction time: onset is the first animation frame after the flipped card is in the DOM
// (two requestAnimationFrame callbacks: the first runs before that frame is painted, the
// second at the start of the next, after the paint); the response is the pointerdown event's
// timeStamp, on the same clock as performance.now(). The judged card is never scaled, turned
// or faded in: it is whole at its final size in that first frame, with or without
// reduced motion; only the frame around it animates. Only the measured RT travels; the server
// checks it is plausible and decides who was first.
//
// Every tap gets an answer on this tablet: the server's judgement of this seat's
// own response (view.mine) once the race is settled, and at once for what the tablet itself
// knows (too late, paused, not your turn, team-mode hint). A tap on anything that cannot be
// played now (a card in a hand, another player, the deck) says what to tap instead.
import { fmt } from "./lib/format.js";
import { overTitle, showOver } from "./lib/game_over.js";
import { seatNames } from "./lib/names.js";
import { tapHint } from "./palm_strike_hints.js";
import { standingsFromPage } from "./lib/standings.js";
import { connectTable } from "./lib/table_socket.js";
import { showHowToPlay } from "./palm_strike_how_to_play.js";

const root = document.querySelector("[data-table-socket]");
// Read-only handle for browser tests and debugging: what this tablet shows and measured.
export const tablet = root ? play(root) : null;

function play(root) {
  var L = JSON.parse(document.getElementById("ps-labels").textContent);
  var standings = standingsFromPage();
  var names = seatNames(L);
  var seatName = names.seatName;

  var el = {
    status: root.querySelector("[data-status]"),
    level: root.querySelector("[data-level]"),
    others: root.querySelector("[data-others]"),
    slot: root.querySelector("[data-public-slot]"),
    centre: root.querySelector("[data-centre]"),
    hand: root.querySelector("[data-hand]"),
    prompt: root.querySelector("[data-prompt]"),
    flip: root.querySelector("[data-flip-button]"),
    deckCount: root.querySelector("[data-deck-count]"),
    feedback: root.querySelector("[data-feedback]"),
    feedbackText: root.querySelector("[data-feedback-text]"),
    feedbackIcon: root.querySelector("[data-feedback-icon]"),
    deck: root.querySelector("[data-deck]"),
    over: root.querySelector("[data-over]"),
    overTitle: root.querySelector("[data-over-title]"),
    overText: root.querySelector("[data-over-text]"),
  };

  var view = null;
  var shownFlip = 0;
  var onset = null;
  var respondedFlip = 0;
  var answeredFlip = 0;  // the flip whose judgement this tablet has shown
  var lastAnswer = null;  // [text, mood, icon] of that judgement, shown again on a second tap
  var feedbackTimer = null;
  var tapPending = false;
  var pressed = null;  // team mode: {flip, index} of the centre card this tablet claimed
  // This tablet's own responses, judged as it saw them: accuracy feedback when scoring is off.
  var tally = { right: 0, total: 0 };

  var table = connectTable(root, {
    onState: function (next, events) {
      names.forgetRemoved(events);
      view = next;
      showHowToPlay(next);
      render();
    },
    onError: function (frame) {
      if (frame.code === "paused") showFeedback(L.paused_tap, "gentle", "pause");
      else if (frame.code === "rejected" || frame.code === "slow_down") {
        // A slap the server refused (its window closed on the way): the sentence says why.
        showFeedback(frame.message, "gentle", tapPending ? "clock" : "hand");
      }
      tapPending = false;
    },
    onStop: function (message) { showOver(el, message || L.left_title, ""); },
    onStandings: function (frame) {
      standings.update(frame);
      if (view) render();
    },
  });

  function act(action) { table.act(action); }

  // ---- drawing cards -----------------------------------------------------------------------

  var SVG = "http://www.w3.org/2000/svg";

  function playerCard(card, extraClass) {
    var box = document.createElement("div");
    box.className = "pcard pcard-player " + (extraClass || "");
    box.style.setProperty("--card-bg", "var(--c-" + card.bg + ")");
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    var use = document.createElementNS(SVG, "use");
    var motif = document.getElementById("m-" + card.motif) ? card.motif : "dot";
    use.setAttribute("href", "#m-" + motif);
    use.setAttribute("fill", "var(--c-" + card.pic + ")");
    svg.appendChild(use);
    box.appendChild(svg);
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", fmt(L.player_card, { pic: L.colour[card.pic], motif: L.motif[card.motif] || card.motif, bg: L.colour[card.bg] }));
    return box;
  }

  function publicCard(card, extraClass) {
    var box = document.createElement("div");
    box.className = "pcard pcard-public " + (extraClass || "");
    box.style.setProperty("--card-bg", "var(--c-" + card.bg + ")");
    var word = document.createElement("span");
    word.className = "pcard-word";
    word.textContent = L.word[card.word];
    word.lang = L.word_language;  // the session's language, not necessarily the page's
    word.style.color = "var(--c-" + card.ink + ")";
    box.appendChild(word);
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", fmt(L.public_card, { word: L.word[card.word], ink: L.colour[card.ink], bg: L.colour[card.bg] }));
    return box;
  }

  function drawCard(card, extraClass) {
    return card.type === "public" ? publicCard(card, extraClass) : playerCard(card, extraClass);
  }

  // ---- the table -----------------------------------------------------------------------------

  function render() {
    var you = view.you;
    root.classList.toggle("is-team", !!view.team_mode);
    el.level.textContent = L.level[view.level] || "";
    el.deckCount.textContent = fmt(L.deck_count, { n: view.deck_count });
    renderOthers(you);
    renderHand(you);
    renderPublic();
    renderCentre();
    renderStatus(you);
    renderAnswer();
    renderGlow(you);
    if (!standings.scoring() && tally.total) el.level.textContent += " · " + fmt(L.right_count, tally);
    renderOver();
  }

  function choosingPlayer() {
    return view.choice && view.phase === "choosing" && view.choice.reason === "player";
  }

  function renderOthers(you) {
    el.others.textContent = "";
    var offered = choosingPlayer() ? view.choice.players : [];
    view.players.forEach(function (player) {
      if (player.seat === you) return;
      var pick = offered.indexOf(player.seat);
      // Several players have a match: the slapper taps whose card it was.
      var box = document.createElement(pick >= 0 ? "button" : "div");
      box.className = "opponent" + (player.seat === view.active_seat ? " is-active" : "") + (pick >= 0 ? " player-choice" : "");
      box.dataset.seat = String(player.seat);
      if (pick >= 0) {
        box.type = "button";
        box.addEventListener("pointerdown", function (event) {
          event.preventDefault();
          box.classList.add("is-pressed");
          act({ kind: "choose", card: pick });
        });
      }
      var label = document.createElement("p");
      label.className = "opponent-name";
      label.textContent = seatName(player.seat) + (view.target && standings.shown(view) ? " · " + player.score : "");
      box.appendChild(label);
      var row = document.createElement("div");
      row.className = "opponent-cards";
      player.cards.forEach(function (card, index) {
        var node = drawCard(card, "pcard-small");
        node.dataset.index = String(index);
        row.appendChild(node);
      });
      box.appendChild(row);
      el.others.appendChild(box);
    });
  }

  function renderHand(you) {
    el.hand.textContent = "";
    var me = view.players.find(function (p) { return p.seat === you; });
    var choosing = view.choice && view.phase === "choosing";
    el.prompt.hidden = !choosing;
    if (choosing) {
      // Why this choice, then what to tap; the matching cards glow (renderGlow).
      var reason = view.choice.reason;
      if (reason === "player") el.prompt.textContent = L.choose_player;
      else if (reason === "give") el.prompt.textContent = fmt(L.choose_give_why, { name: seatName(view.choice.to_seat) }) + " " + fmt(L.choose_give, { name: seatName(view.choice.to_seat) });
      else el.prompt.textContent = L.choose_return_why + " " + L.choose_return;
    }
    choosing = choosing && view.choice.reason !== "player";
    if (view.team_mode) {
      // Whole-class game: nobody holds cards; show how many this student has claimed.
      var claimed = document.createElement("p");
      claimed.className = "ps-claimed";
      claimed.textContent = standings.scoring()
        ? fmt(L.claimed_count, { n: (view.claims || {})[String(you)] || 0 })
        : fmt(L.right_count, tally);
      el.hand.appendChild(claimed);
      return;
    }
    if (!me) return;
    me.cards.forEach(function (card, index) {
      var node = drawCard(card, "pcard-mine");
      node.dataset.index = String(index);
      if (choosing) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "card-choice";
        button.setAttribute("aria-label", node.getAttribute("aria-label"));
        button.appendChild(node);
        button.addEventListener("pointerdown", function () {
          button.classList.add("is-pressed");
          act({ kind: "choose", card: index });
        });
        el.hand.appendChild(button);
      } else {
        el.hand.appendChild(node);
      }
    });
    if (!me.cards.length) {
      var empty = document.createElement("p");
      empty.className = "hand-empty";
      empty.textContent = L.no_cards;
      el.hand.appendChild(empty);
    }
  }

  function renderPublic() {
    var flip = view.flip || 0;
    if (!view.public) {
      el.slot.textContent = "";
      shownFlip = 0;
      return;
    }
    if (flip === shownFlip) {
      var current = el.slot.querySelector("[data-flip]");
      if (current) current.classList.toggle("is-closed", !flipOpen());
      return;
    }
    // A fresh element for every flip: its first painted frame is the stimulus onset.
    shownFlip = flip;
    onset = null;
    var target = document.createElement("button");
    target.type = "button";
    target.className = "slap-target";
    target.dataset.flip = String(flip);
    // Named "Slap" and the card it shows (the card's own name holds its visible word), so
    // the word a child sees is in the button's name (WCAG 2.5.3, label in name).
    var verb = document.createElement("span");
    verb.className = "visually-hidden";
    verb.textContent = L.slap;
    target.append(verb, drawCard(view.public, "pcard-big"));
    target.addEventListener("pointerdown", function (event) { slap(event, flip, target); });
    el.slot.textContent = "";
    el.slot.appendChild(target);
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        if (shownFlip === flip) onset = performance.now();
      });
    });
  }

  // The flip takes responses until its window closes, even while a winner picks a card.
  function flipOpen() {
    return view.window_closes_ms !== null && view.window_closes_ms !== undefined;
  }

  // The reaction time of a tap, or why the page cannot give one: a hidden page gets a couple
  // of frames a second, so the card's first frame may not have come yet. Such a tap is still
  // sent, answered and recorded, with no time.
  function timing(event) {
    var rtt = Math.min(table.rtt(), 10000);
    if (onset === null) {
      return { rtt_ms: rtt, untimed: document.visibilityState === "hidden" ? "hidden" : "unpainted" };
    }
    return { rt_ms: Math.max(0, Math.round(event.timeStamp - onset)), rtt_ms: rtt };
  }

  // What a tap the tablet itself can answer gets at once: paused, too late, a second tap.
  function answeredLocally(flip) {
    if (view.paused) { showFeedback(L.paused_tap, "gentle", "pause"); return true; }
    if (flip !== view.flip || !flipOpen()) { showFeedback(L.too_late, "gentle", "clock"); return true; }
    if (respondedFlip === flip) {
      if (lastAnswer && answeredFlip === flip) showFeedback(lastAnswer[0], lastAnswer[1], lastAnswer[2]);
      return true;
    }
    return false;
  }

  function slap(event, flip, target) {
    event.preventDefault();
    if (view.team_mode) {
      // Team mode keeps one tap: the matching card in the middle is the claim.
      if (!answeredLocally(flip)) showFeedback(L.team_hint, "gentle", "hand");
      return;
    }
    if (answeredLocally(flip)) return;
    respondedFlip = flip;
    tapPending = true;
    target.classList.add("is-pressed");
    act(Object.assign({ kind: "slap", flip: flip }, timing(event)));
  }

  function renderCentre() {
    el.centre.hidden = !view.team_mode;
    if (!view.team_mode) return;
    el.centre.textContent = "";
    // Two rows: as many columns as half the cards (6-10 cards: 3-5 columns).
    el.centre.style.setProperty("--cols", String(Math.max(3, Math.ceil(view.centre.length / 2))));
    view.centre.forEach(function (card, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "centre-card";
      var node = drawCard(card, "pcard-centre");
      button.dataset.index = String(index);
      button.setAttribute("aria-label", fmt(L.claim, { card: node.getAttribute("aria-label") }));
      button.appendChild(node);
      var flip = view.flip;
      // The card this child tapped stays marked while the flip is on (views redraw the centre).
      if (pressed && pressed.flip === flip && pressed.index === index) button.classList.add("is-pressed");
      button.addEventListener("pointerdown", function (event) {
        event.preventDefault();
        if (!view.public) { showFeedback(L.wait_flip, "gentle", "hand"); return; }
        if (answeredLocally(flip)) return;
        respondedFlip = flip;
        tapPending = true;
        pressed = { flip: flip, index: index };
        button.classList.add("is-pressed");
        act(Object.assign({ kind: "claim", flip: flip, card: index }, timing(event)));
      });
      el.centre.appendChild(button);
    });
  }

  function renderStatus(you) {
    var text;
    var myTurnToFlip = view.phase === "waiting_flip" && view.active_seat === you && L.pacing !== "auto";
    el.flip.hidden = !myTurnToFlip;
    if (view.paused) text = L.paused;
    else if (view.ended) text = L.ended;
    else if (view.phase === "open" && !flipOpen()) text = L.closed_for_you;
    else if (view.phase === "open") text = view.team_mode ? L.open_team : L.open;
    else if (view.phase === "choosing") text = view.choice ? "" : L.waiting_choice;
    else if (view.phase === "round_over") text = L.round_over;
    else if (myTurnToFlip) text = L.your_flip;
    else if (view.phase === "waiting_flip") text = L.pacing === "auto" ? L.get_ready : fmt(L.their_flip, { name: seatName(view.active_seat) });
    else text = "";
    el.status.textContent = text;
    root.classList.toggle("is-paused", !!view.paused);
  }

  // A tap on something that cannot be played now (a card in a hand, another player, the deck
  // out of turn): what to tap instead. Buttons answer their own taps.
  root.addEventListener("pointerdown", function (event) {
    var target = event.target;
    if (!view || !target.closest || target.closest("button, .ps-over, .ps-top")) return;
    if (!target.closest(".ps-others, .ps-centre, .ps-mine")) return;
    var hint = tapHint(view, L.pacing);
    if (!hint) return;
    var name = hint.name !== undefined ? seatName(hint.name) : "";
    showFeedback(fmt(L[hint.key], { name: name }), "gentle", hint.icon);
  });

  el.flip.addEventListener("pointerdown", function (event) {
    event.preventDefault();
    el.flip.classList.add("is-pressed");
    act({ kind: "flip" });
    setTimeout(function () { el.flip.classList.remove("is-pressed"); }, 200);
  });

  var ICONS = { star: "#fb-star", check: "#fb-check", eye: "#fb-eye", clock: "#fb-clock", pause: "#fb-pause", hand: "#fb-hand" };

  function showFeedback(text, mood, icon) {
    el.feedbackText.textContent = text;
    el.feedbackIcon.setAttribute("href", ICONS[icon] || ICONS.hand);
    el.feedback.className = "ps-feedback feedback-" + mood;
    el.feedback.dataset.icon = icon || "hand";
    // Re-start the gentle pop (animation only; the bubble's place never moves).
    el.feedback.hidden = true;
    void el.feedback.offsetWidth;
    el.feedback.hidden = false;
    clearTimeout(feedbackTimer);
    feedbackTimer = setTimeout(function () { el.feedback.hidden = true; }, 2200);
  }

  // The server's judgement of this seat's own tap, once the race is settled.
  function renderAnswer() {
    var mine = view.mine;
    if (!mine || mine.result === "waiting" || mine.flip === answeredFlip) return;
    answeredFlip = mine.flip;
    respondedFlip = mine.flip;
    tapPending = false;
    var right = mine.result === "first" || mine.result === "right";
    tally.total += 1;
    if (right) tally.right += 1;
    var answer;
    if (!standings.scoring()) {
      // Accuracy only: whether the tap was right, never who was first.
      if (right) answer = [L.spotted, "happy", "check"];
      else if (mine.result === "wrong_card") answer = [L.wrong_card, "gentle", "eye"];
      else answer = [L.no_match, "gentle", "eye"];
    } else if (mine.result === "first") {
      answer = [view.team_mode ? L.claimed : L.first, "happy", "star"];
    } else if (mine.result === "first_no_match") {
      answer = [L.false_slap, "gentle", "eye"];
    } else if (mine.result === "right") {
      answer = mine.winner !== null && mine.winner !== undefined
        ? [fmt(L.right_slower, { name: seatName(mine.winner) }), "happy", "check"]
        : [L.spotted, "happy", "check"];
    } else if (mine.result === "wrong_card") {
      answer = [L.wrong_card, "gentle", "eye"];
    } else {
      answer = [L.no_match, "gentle", "eye"];
    }
    lastAnswer = answer;
    showFeedback(answer[0], answer[1], answer[2]);
  }

  // After the flip is judged, the cards that matched glow, so the child sees why.
  function renderGlow(you) {
    var glow = view.glow;
    var slot = el.slot.querySelector("[data-flip]");
    if (slot) slot.classList.toggle("is-glowing", !!glow && (glow.centre.length > 0 || Object.keys(glow.players).some(function (s) { return glow.players[s].length; })));
    if (!glow) return;
    Object.keys(glow.players).forEach(function (seat) {
      var area = Number(seat) === you ? el.hand : el.others.querySelector('[data-seat="' + seat + '"]');
      if (!area) return;
      glow.players[seat].forEach(function (index) {
        var card = area.querySelector('.pcard[data-index="' + index + '"]');
        if (card) card.classList.add("is-glowing");
      });
    });
    glow.centre.forEach(function (index) {
      var button = el.centre.querySelector('[data-index="' + index + '"]');
      if (button) button.classList.add("is-glowing");
    });
  }

  function renderOver() {
    var over = view.phase === "game_over" || view.ended;
    if (!over) {
      el.over.hidden = true;
      return;
    }
    var shown = standings.shown(view);
    // Accuracy only: this tablet's own count of right taps, before the closing words.
    var yours = !shown && !standings.scoring() && tally.total ? fmt(L.right_total, tally) + " " : "";
    showOver(el, overTitle(L, view, { shown: shown, seatName: seatName }), yours + L.well_played);
  }

  return {
    get view() { return view; },
    get onset() { return onset; },
    get shownFlip() { return shownFlip; },
    get rttMs() { return table.rtt(); },
    get feedback() { return el.feedback.hidden ? null : { text: el.feedbackText.textContent, icon: el.feedback.dataset.icon, mood: el.feedback.className }; },
  };
}
