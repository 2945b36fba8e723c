// Palm Strike on a tablet: draws the table from the server's view and measures reaction time.
//
// Reaction time: onset is the first animation frame after the flipped card is in the DOM
// (two requestAnimationFrame callbacks: the first runs before that frame is painted, the
// second at the start of the next, after the paint); the response is the pointerdown event's
// timeStamp, on the same clock as performance.now(). Only the measured RT travels; the server
// checks it is plausible and decides who was first.
(function () {
  "use strict";

  var root = document.querySelector("[data-table-socket]");
  if (!root) return;
  var L = JSON.parse(document.getElementById("ps-labels").textContent);
  var standings = window.SnapclassStandings.fromPage();

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
    over: root.querySelector("[data-over]"),
    overTitle: root.querySelector("[data-over-title]"),
    overText: root.querySelector("[data-over-text]"),
  };

  var view = null;
  var shownFlip = 0;
  var onset = null;
  var respondedFlip = 0;
  var lastFeedbackFlip = 0;
  var feedbackTimer = null;
  // This tablet's own responses, judged as it saw them: accuracy feedback when scoring is off.
  var tally = { right: 0, total: 0 };

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_match, key) {
      return values[key] === undefined ? "" : values[key];
    });
  }

  var table = window.SnapclassTable.connect(root, {
    onState: function (next, events) {
      forgetRemoved(events);
      view = next;
      render();
    },
    onError: function (frame) {
      if (frame.code === "rejected" || frame.code === "paused" || frame.code === "slow_down") {
        showFeedback(frame.message, "gentle");
      }
    },
    onStop: function (message) { showOver(message || L.left_title, ""); },
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
    el.level.textContent = L.level[view.level] || "";
    el.deckCount.textContent = fmt(L.deck_count, { n: view.deck_count });
    renderOthers(you);
    renderHand(you);
    renderPublic();
    renderCentre();
    renderStatus(you);
    renderLast(you);
    if (!standings.scoring() && tally.total) el.level.textContent += " · " + fmt(L.right_count, tally);
    renderOver(you);
  }

  // A classmate taken off the class list mid-game: a robot plays their seat, and their name
  // leaves this page at once (the next page load has the robot's own name).
  function forgetRemoved(events) {
    (events || []).forEach(function (event) {
      if (event.kind === "bot_takeover") L.names[String(event.seat)] = L.robot;
    });
  }
  function seatName(seat) {
    return L.names[String(seat)] || fmt(L.player_n, { n: seat + 1 });
  }

  function renderOthers(you) {
    el.others.textContent = "";
    view.players.forEach(function (player) {
      if (player.seat === you) return;
      var box = document.createElement("div");
      box.className = "opponent" + (player.seat === view.active_seat ? " is-active" : "");
      var label = document.createElement("p");
      label.className = "opponent-name";
      label.textContent = seatName(player.seat) + (view.target && standings.shown(view) ? " · " + player.score : "");
      box.appendChild(label);
      var row = document.createElement("div");
      row.className = "opponent-cards";
      player.cards.forEach(function (card) { row.appendChild(drawCard(card, "pcard-small")); });
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
      el.prompt.textContent = view.choice.reason === "give"
        ? fmt(L.choose_give, { name: seatName(view.choice.to_seat) })
        : L.choose_return;
    }
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
    target.setAttribute("aria-label", L.slap);
    target.appendChild(drawCard(view.public, "pcard-big"));
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

  function reactionTime(event) {
    if (onset === null) return null;
    return Math.max(0, Math.round(event.timeStamp - onset));
  }

  function slap(event, flip, target) {
    event.preventDefault();
    if (view.team_mode || !flipOpen() || respondedFlip === flip) return;
    var rt = reactionTime(event);
    if (rt === null) return;
    respondedFlip = flip;
    target.classList.add("is-pressed");
    act({ kind: "slap", flip: flip, rt_ms: rt, rtt_ms: Math.min(table.rtt(), 10000) });
  }

  function renderCentre() {
    el.centre.hidden = !view.team_mode;
    if (!view.team_mode) return;
    el.centre.textContent = "";
    view.centre.forEach(function (card, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "centre-card";
      var node = drawCard(card, "pcard-small");
      button.setAttribute("aria-label", fmt(L.claim, { card: node.getAttribute("aria-label") }));
      button.appendChild(node);
      button.addEventListener("pointerdown", function (event) {
        event.preventDefault();
        if (!flipOpen() || respondedFlip === view.flip) return;
        var rt = reactionTime(event);
        if (rt === null) return;
        respondedFlip = view.flip;
        button.classList.add("is-pressed");
        act({ kind: "claim", flip: view.flip, card: index, rt_ms: rt, rtt_ms: Math.min(table.rtt(), 10000) });
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
    else if (view.phase === "open") text = view.team_mode ? L.open_team : L.open;
    else if (view.phase === "choosing") text = view.choice ? "" : L.waiting_choice;
    else if (myTurnToFlip) text = L.your_flip;
    else if (view.phase === "waiting_flip") text = L.pacing === "auto" ? L.get_ready : fmt(L.their_flip, { name: seatName(view.active_seat) });
    else text = "";
    el.status.textContent = text;
    root.classList.toggle("is-paused", !!view.paused);
  }

  el.flip.addEventListener("pointerdown", function (event) {
    event.preventDefault();
    el.flip.classList.add("is-pressed");
    act({ kind: "flip" });
    setTimeout(function () { el.flip.classList.remove("is-pressed"); }, 200);
  });

  function showFeedback(text, mood) {
    el.feedback.textContent = text;
    el.feedback.className = "ps-feedback feedback-" + mood;
    el.feedback.hidden = false;
    clearTimeout(feedbackTimer);
    feedbackTimer = setTimeout(function () { el.feedback.hidden = true; }, 1600);
  }

  function renderLast(you) {
    var last = view.last;
    if (!last || last.flip === lastFeedbackFlip || last.winner === undefined) return;
    if (last.outcome === null && last.winner === null) return;
    lastFeedbackFlip = last.flip;
    var slapped = (last.slappers || []).indexOf(you) >= 0;
    var missed = last.outcome === "false" || last.outcome === "false_claim";
    if (slapped) {
      tally.total += 1;
      if (!missed) tally.right += 1;
    }
    if (!standings.scoring()) {
      // Accuracy only: whether the slap was right, never who was first.
      if (!slapped) return;
      if (!missed) showFeedback(L.spotted, "happy");
      else showFeedback(last.winner === you ? L.false_slap : L.no_match, "gentle");
      return;
    }
    if (last.winner === you) {
      if (last.outcome === "false" || last.outcome === "false_claim") showFeedback(L.false_slap, "gentle");
      else if (last.outcome === "claim") showFeedback(L.claimed, "happy");
      else showFeedback(L.first, "happy");
    } else if (slapped && last.winner !== null) {
      showFeedback(fmt(L.too_slow, { name: seatName(last.winner) }), "gentle");
    }
  }

  function renderOver(you) {
    var over = view.phase === "game_over" || view.ended;
    if (!over) {
      el.over.hidden = true;
      return;
    }
    if (!standings.shown(view)) {
      var yours = !standings.scoring() && tally.total ? fmt(L.right_total, tally) + " " : "";
      showOver(view.ended ? L.ended : L.game_over, yours + L.well_played);
      return;
    }
    var winners = view.winners || [];
    if (winners.indexOf(you) >= 0) showOver(L.you_win, L.well_played);
    else if (winners.length) showOver(fmt(L.winner_is, { name: winners.map(seatName).join(", ") }), L.well_played);
    else showOver(L.ended, L.well_played);
  }

  function showOver(title, text) {
    el.overTitle.textContent = title;
    el.overText.textContent = text;
    el.over.hidden = false;
  }

  // Read-only handle for browser tests and debugging: what this tablet shows and measured.
  window.palmStrike = {
    get view() { return view; },
    get onset() { return onset; },
    get shownFlip() { return shownFlip; },
    get rttMs() { return table.rtt(); },
  };

})();
