// Commotion on a tablet: the shared centre piles, your tableau, waste and stock.
//
// Tap a card to pick it up and tap a pile to play it; when exactly one pile can take it, the
// tap plays it at once. Reaction time for the analytics: the onset of a play opportunity is
// the first animation frame after the card is drawn as playable (double requestAnimationFrame),
// the response the pointerdown event's timeStamp when the card is picked up.
import { symbols } from "./colour_symbols.js";
import { tapHint } from "./commotion_hints.js";
import { showHowToPlay } from "./commotion_how_to_play.js";
import { PILE_GAP, pileWidth } from "./commotion_layout.js";
import { playTime } from "./commotion_times.js";
import { fmt } from "./lib/format.js";
import { overTitle, showOver } from "./lib/game_over.js";
import { seatNames } from "./lib/names.js";
import { standingsFromPage } from "./lib/standings.js";
import { connectTable, TOLD_AS_THEY_COME } from "./lib/table_socket.js";

const root = document.querySelector("[data-commotion]");
// Read-only handle for browser tests and debugging.
export const tablet = root ? play(root) : null;

function play(root) {
  var L = JSON.parse(document.getElementById("cm-labels").textContent);
  var standings = standingsFromPage();
  var names = seatNames(L);
  var seatName = names.seatName;

  var el = {
    status: root.querySelector("[data-status]"),
    round: root.querySelector("[data-round]"),
    others: root.querySelector("[data-others]"),
    centre: root.querySelector("[data-centre]"),
    tableau: root.querySelector("[data-tableau]"),
    waste: root.querySelector("[data-waste]"),
    stock: root.querySelector("[data-stock]"),
    refill: root.querySelector("[data-refill]"),
    out: root.querySelector("[data-out]"),
    extra: root.querySelector("[data-extra]"),
    feedback: root.querySelector("[data-feedback]"),
    over: root.querySelector("[data-over]"),
    overTitle: root.querySelector("[data-over-title]"),
    overBody: root.querySelector("[data-over-body]"),
    overText: root.querySelector("[data-over-text]"),
    overOut: root.querySelector("[data-over-out]"),
  };

  var view = null;
  var held = null;          // {source, card, key, tappedAt, and its frames: see pick}
  var onsets = {};          // opportunity key -> performance.now() of its first painted frame
  var shown = {};           // each of your cards and each pile's top -> its first painted frame
  var gameOffset = 0;       // performance.now() - game time, from the last frame
  var feedbackTimer = null;
  var clockTimer = null;
  var overTimer = null;     // "Next round in N s", counting down

  var table = connectTable(root, {
    onState: function (next, events) {
      names.forgetRemoved(events);
      if (typeof next.game_ms === "number") gameOffset = performance.now() - next.game_ms;
      view = next;
      showHowToPlay(next);
      if (held && !stillHeld()) held = null;
      render();
    },
    onError: function (frame) {
      if (TOLD_AS_THEY_COME.indexOf(frame.code) >= 0) feedback(frame.message, "gentle");
    },
    onStop: function (message) { showOverWithScores(message || L.left_title, "", null); },
    onStandings: function (frame) {
      standings.update(frame);
      if (view) render();
    },
  });

  // ---- cards ---------------------------------------------------------------------------------

  function cardLabel(card) {
    if (card.kind === "start") return L.start;
    if (card.kind === "stop") return L.stop;
    return fmt(L.number_card, { colour: L.colour[card.colour] || card.colour, number: card.number });
  }

  function cardElement(card, size) {
    var node = document.createElement("span");
    node.className = "cm-card cm-size-" + size + " cm-" + card.kind + (card.colour ? " cm-" + card.colour : "");
    node.dataset.owner = card.owner;
    var face = document.createElement("span");
    face.className = "cm-face";
    face.textContent = card.kind === "number" ? card.number : card.kind === "start" ? L.start : L.stop;
    node.appendChild(face);
    // The colour's shape too: two colours that look alike to a child still differ in shape.
    var symbol = card.colour && symbols.forColour(card.colour);
    if (symbol) node.appendChild(symbols.svg(symbol, "cm-symbol"));
    var back = document.createElement("span");
    back.className = "cm-owner";
    node.appendChild(back);
    return node;
  }

  function key(source, index, card) {
    return source + ":" + index + ":" + card.owner + card.kind + (card.colour || "") + (card.number || "");
  }

  function me() {
    if (!view || view.you === null || view.you === undefined) return null;
    return view.players.find(function (p) { return p.seat === view.you; }) || null;
  }

  function playableFor(source, index) {
    return (view.playable || []).find(function (p) {
      return p.source === source && (source === "waste" || p.card === index);
    }) || null;
  }

  function stillHeld() {
    var mine = me();
    if (!mine) return false;
    var card = held.source === "waste" ? mine.waste_top : mine.tableau[held.card];
    return !!card && key(held.source, held.card, card) === held.key;
  }

  // ---- drawing -------------------------------------------------------------------------------

  function render() {
    var mine = me();
    root.classList.toggle("is-paused", !!view.paused);
    renderStatus();
    renderOthers();
    renderCentre();
    renderMine(mine);
    renderOver();
    trackOnsets();
  }

  function renderStatus() {
    el.round.textContent = fmt(L.round_n, { n: view.round });
    clearInterval(clockTimer);
    if (view.paused) el.status.textContent = L.paused;
    else if (view.ended) el.status.textContent = L.ended;
    else if (view.phase === "countdown") {
      var tick = function () {
        var left = Math.max(0, Math.ceil((view.go_at_ms + gameOffset - performance.now()) / 1000));
        el.status.textContent = left > 0 ? fmt(L.countdown, { n: left }) : L.go;
      };
      tick();
      clockTimer = setInterval(tick, 200);
    } else if (view.phase === "playing") {
      var extra = view.stuck ? L.stuck : L.extra_right;  // the right outlives the stuck moment
      el.status.textContent = view.you_can_extra ? extra : held ? L.now_pile : L.playing;
    } else el.status.textContent = "";
  }

  function renderOthers() {
    el.others.replaceChildren();
    view.players.forEach(function (player) {
      if (player.seat === view.you) return;
      var box = document.createElement("div");
      box.className = "cm-opponent";
      // Compact: the name (and points) over the row, the refill count after it (under it
      // when the strip is narrow); the centre needs the room. A long name gives way first:
      // the points and the count are always shown whole.
      var name = document.createElement("p");
      name.className = "cm-opponent-name";
      var who = document.createElement("span");
      who.className = "cm-opponent-who";
      who.textContent = seatName(player.seat);
      name.appendChild(who);
      // The points: beside the name on a wide strip, after the refill count on a portrait
      // tablet (the CSS shows one of the two), so a name is never cut for them.
      function points() {
        var span = document.createElement("span");
        span.className = "cm-opponent-points";
        span.textContent = " · " + fmt(L.points_short, { n: player.total });
        return span;
      }
      if (standings.shown(view)) name.appendChild(points());
      var row = document.createElement("div");
      row.className = "cm-opponent-cards";
      player.tableau.forEach(function (card) { row.appendChild(cardElement(card, "tiny")); });
      var refill = document.createElement("span");
      refill.className = "cm-opponent-refill";
      refill.textContent = fmt(L.refill_short, { n: player.refill });
      refill.title = fmt(L.refill_left, { n: player.refill });
      if (standings.shown(view)) refill.appendChild(points());
      row.appendChild(refill);
      box.append(name, row);
      el.others.appendChild(box);
    });
  }

  function renderCentre() {
    el.centre.replaceChildren();
    var targets = held ? (playableFor(held.source, held.card) || { piles: [] }).piles : [];
    view.centre.forEach(function (pile, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "cm-pile" + (pile.closed ? " is-closed" : "") + (targets.indexOf(index) >= 0 ? " is-target" : "");
      button.setAttribute("aria-label", fmt(L.pile_label, { card: cardLabel(pile.top), n: pile.cards }));
      var count = document.createElement("span");
      count.className = "cm-pile-count";
      count.textContent = pile.cards;
      // A space between the card's number and the count: the pile reads "5 5", as its name
      // does ("yellow 5, 5 cards"), not "55" (WCAG 2.5.3). The count is placed absolutely, so
      // the space ends the line and takes no room.
      button.append(cardElement(pile.top, "pile"), " ", count);
      button.addEventListener("pointerdown", function (event) { playOn(index, pile, event); });
      el.centre.appendChild(button);
    });
    if (held && targets.indexOf(-1) >= 0) {
      var fresh = document.createElement("button");
      fresh.type = "button";
      fresh.className = "cm-pile cm-new-pile is-target";
      fresh.textContent = L.new_pile;
      fresh.addEventListener("pointerdown", function (event) { playOn(-1, null, event); });
      el.centre.appendChild(fresh);
    }
    if (!view.centre.length && !(held && targets.indexOf(-1) >= 0)) {
      var hint = document.createElement("p");
      hint.className = "cm-centre-empty";
      hint.textContent = L.centre_empty;
      el.centre.appendChild(hint);
    }
    fitCentre();
  }

  // The piles as large as the centre box allows (commotion_layout.js).
  function fitCentre() {
    var count = el.centre.querySelectorAll(".cm-pile").length;
    if (!count) return;
    var style = getComputedStyle(el.centre);
    var width = el.centre.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    var height = el.centre.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    el.centre.style.setProperty("--pile-w", pileWidth(count, width, height) + "px");
    el.centre.style.setProperty("--pile-gap", PILE_GAP + "px");
    // For the layout test: which screen size and pile count this fit was made for.
    el.centre.dataset.fittedFor = window.innerWidth + "x" + window.innerHeight + ":" + count;
  }
  window.addEventListener("resize", function () { if (view) fitCentre(); });

  function cardButton(card, source, index) {
    var button = document.createElement("button");
    button.type = "button";
    var isHeld = held && held.source === source && held.card === index;
    var canPlay = !!playableFor(source, index);
    button.className = "cm-pick" + (isHeld ? " is-held" : "") + (canPlay ? " is-playable" : "");
    button.setAttribute("aria-label", cardLabel(card));
    button.setAttribute("aria-pressed", isHeld ? "true" : "false");
    button.appendChild(cardElement(card, "mine"));
    button.addEventListener("pointerdown", function (event) { pick(source, index, card, event); });
    return button;
  }

  function renderMine(mine) {
    el.tableau.replaceChildren();
    el.waste.replaceChildren();
    if (!mine) return;
    mine.tableau.forEach(function (card, index) { el.tableau.appendChild(cardButton(card, "tableau", index)); });
    if (mine.waste_top) el.waste.appendChild(cardButton(mine.waste_top, "waste", 0));
    else {
      var empty = document.createElement("span");
      empty.className = "cm-slot";
      empty.textContent = L.waste_empty;
      empty.addEventListener("pointerdown", function () { answer("waste"); });
      el.waste.appendChild(empty);
    }
    // Plain words: what the button does, never how many cards the stock holds.
    el.stock.textContent = mine.stock > 0 ? L.turn : L.recycle;
    // Looks off but still takes a tap, so that tap is answered with what to do instead.
    el.stock.setAttribute("aria-disabled", view.phase !== "playing" || (mine.stock === 0 && mine.waste === 0) ? "true" : "false");
    el.refill.textContent = fmt(L.cards_to_go, { n: mine.refill });
    el.out.hidden = !view.you_can_out;
    el.extra.hidden = !view.you_can_extra;
  }

  function outLine() {
    if (view.out_by !== null && view.out_by !== undefined) {
      return view.out_by === view.you ? L.you_called_out : fmt(L.called_out, { name: seatName(view.out_by) });
    }
    return view.ended_by === "stall" ? L.stall_ended : "";
  }

  function renderOver() {
    clearInterval(overTimer);
    if (view.phase === "round_over" || view.phase === "game_over" || view.ended) {
      var rows = (view.rounds || []).filter(function (r) { return r.round === view.round; });
      // The whole table's scores only when the leaderboard is up; with scoring on, your own.
      if (!standings.shown(view)) {
        rows = standings.scoring() ? rows.filter(function (r) { return r.seat === view.you; }) : [];
      }
      var title;
      var text = "";
      if (view.ended && view.phase !== "game_over") {
        // The teacher ended the game before it was over: an unfinished round has no score,
        // and a game cut short has no winner, so neither is shown.
        rows = [];
        title = L.ended_early;
        text = L.ended_early_text;
      } else if (view.phase === "game_over" || view.ended) {
        title = overTitle(L, view, { shown: standings.shown(view), seatName: seatName });
        text = L.well_played;
      } else {
        title = fmt(L.round_over, { n: view.round });
        text = nextRoundText();
        // The seconds count down on their own: no new state arrives until the deal.
        overTimer = setInterval(function () {
          if (view.phase === "round_over" && !view.paused) el.overText.textContent = nextRoundText();
        }, 250);
      }
      showOverWithScores(title, text, rows);
      var said = view.ended ? "" : outLine();
      el.overOut.textContent = said;
      el.overOut.hidden = !said;
    } else {
      el.over.hidden = true;
    }
  }

  function nextRoundText() {
    var left = Math.max(0, Math.ceil((view.next_round_at_ms + gameOffset - performance.now()) / 1000));
    return fmt(L.next_round, { n: left });
  }

  // The round's or the game's panel, with the score table when there are rows to show.
  function showOverWithScores(title, text, rows) {
    el.overOut.hidden = true;
    el.overBody.replaceChildren();
    if (rows && rows.length) {
      var tableEl = document.createElement("table");
      tableEl.className = "cm-scores";
      var head = document.createElement("tr");
      [L.player, L.centre_cards, L.refill_penalty, L.out_bonus, L.this_round, L.total].forEach(function (label) {
        var th = document.createElement("th");
        th.scope = "col";
        th.textContent = label;
        head.appendChild(th);
      });
      tableEl.appendChild(head);
      rows.forEach(function (row) {
        var tr = document.createElement("tr");
        if (row.seat === view.you) tr.className = "is-you";
        if (row.seat === view.out_by) tr.className += " is-out";
        [seatName(row.seat), "+" + row.centre_cards, row.refill_left ? "−" + 2 * row.refill_left : "0",
         row.out_bonus ? "+" + row.out_bonus : "", row.round_score, row.total].forEach(function (value, i) {
          var cell = document.createElement(i === 0 ? "th" : "td");
          if (i === 0) cell.scope = "row";
          cell.textContent = value;
          tr.appendChild(cell);
        });
        tableEl.appendChild(tr);
      });
      el.overBody.appendChild(tableEl);
    }
    showOver(el, title, text);
  }

  // ---- reaction-time onsets ------------------------------------------------------------------

  function trackOnsets() {
    var mine = me();
    var current = {};
    (view.playable || []).forEach(function (p) {
      var card = p.source === "waste" ? mine && mine.waste_top : mine && mine.tableau[p.card];
      if (card) current[key(p.source, p.source === "waste" ? 0 : p.card, card)] = true;
    });
    // Every card of yours and every pile's top too: a wrong play is timed from them.
    var drawn = {};
    if (mine) {
      mine.tableau.forEach(function (card, index) { drawn[key("tableau", index, card)] = true; });
      if (mine.waste_top) drawn[key("waste", 0, mine.waste_top)] = true;
    }
    view.centre.forEach(function (pile, index) { drawn[pileKey(index, pile)] = true; });
    stampFirstFrame(onsets, current);
    stampFirstFrame(shown, drawn);
  }

  // The piles only grow: a pile's place and size name its top card.
  function pileKey(index, pile) {
    return "pile:" + index + ":" + pile.cards;
  }

  // Keeps `stamps` to the keys of `current`, a new one stamped with its first painted frame.
  function stampFirstFrame(stamps, current) {
    Object.keys(stamps).forEach(function (k) { if (!current[k]) delete stamps[k]; });
    var fresh = Object.keys(current).filter(function (k) { return stamps[k] === undefined; });
    if (!fresh.length) return;
    fresh.forEach(function (k) { stamps[k] = null; });
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        var at = performance.now();
        fresh.forEach(function (k) { if (stamps[k] === null) stamps[k] = at; });
      });
    });
  }

  // From the frames stamped when the card was picked up (commotion_times.js).
  function rtFor(pileIndex) {
    var pile = pileIndex >= 0 ? held.piles[pileIndex] : undefined;
    return playTime({
      playableAt: held.playableAt, cardShownAt: held.shownAt, pileShownAt: pile, tappedAt: held.tappedAt,
    });
  }

  // ---- input ---------------------------------------------------------------------------------

  // A tap that cannot play anything now is answered at once with what to tap instead
  // (commotion_hints.js); true when it was.
  function answer(tap) {
    var hint = tapHint(view, tap, !!held);
    if (hint) feedback(L[hint], "gentle");
    return !!hint;
  }

  function pick(source, index, card, event) {
    if (answer("card") || !view || view.phase !== "playing" || view.paused) return;
    var k = key(source, index, card);
    if (held && held.key === k) { held = null; render(); return; }
    held = {
      source: source, card: index, key: k, tappedAt: event.timeStamp,
      playableAt: onsets[k], shownAt: shown[k],
      piles: view.centre.map(function (pile, i) { return shown[pileKey(i, pile)]; }),
    };
    var options = playableFor(source, index);
    if (options && options.piles.length === 1) {
      var pileIndex = options.piles[0];
      send(pileIndex, pileIndex >= 0 ? view.centre[pileIndex].cards : -1);
      return;
    }
    render();
  }

  function playOn(pileIndex, pile, event) {
    event.preventDefault();
    if (answer("pile") || !held) return;
    send(pileIndex, pile ? pile.cards : -1);
  }

  function send(pileIndex, pileSize) {
    table.act({
      kind: "play", source: held.source, card: held.card, pile: pileIndex, pile_size: pileSize,
      rt_ms: rtFor(pileIndex), rtt_ms: table.rtt(),
    });
    held = null;
    render();
  }

  el.stock.addEventListener("click", function () {
    if (!answer("stock") && view && view.phase === "playing") table.act({ kind: "turn" });
  });
  el.others.addEventListener("pointerdown", function () { answer("others"); });
  el.centre.addEventListener("pointerdown", function (event) {
    if (!event.target.closest(".cm-pile")) answer("centre");
  });
  el.out.addEventListener("click", function () { table.act({ kind: "out" }); });
  el.extra.addEventListener("click", function () { table.act({ kind: "extra" }); });

  function feedback(text, mood) {
    el.feedback.textContent = text;
    el.feedback.className = "ps-feedback cm-feedback feedback-" + mood;
    el.feedback.hidden = false;
    clearTimeout(feedbackTimer);
    feedbackTimer = setTimeout(function () { el.feedback.hidden = true; }, 1400);
  }

  return {
    get view() { return view; },
    get onsets() { return onsets; },
  };
}
