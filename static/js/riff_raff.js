// Riff Raff on a tablet: the ship (drawn by riff_raff_scene.js) plus the student's part.
//
// To place cargo the active student sees their next piece at the top left, drags it onto the
// ship (turn it with the buttons) and lets go: the drop point and angle go to the server in
// ship coordinates. A piece falling off the ship can be caught by tapping it; the catch
// reaction time runs from the first painted frame that shows it falling (the animation frame
// after that paint, see markFalling) to the pointerdown event's timeStamp. A tap on the ship
// when there is nothing to do on it is answered at once with what to do instead (tap a card,
// wait for a named player…).
import { fmt } from "./lib/format.js";
import { overTitle, showOver } from "./lib/game_over.js";
import { seatNames } from "./lib/names.js";
import { standingsFromPage } from "./lib/standings.js";
import { connectTable, TOLD_AS_THEY_COME } from "./lib/table_socket.js";
import { showHowToPlay } from "./riff_raff_how_to_play.js";
import { createScene } from "./riff_raff_scene.js";

const root = document.querySelector("[data-riff-raff]");
// Read-only handle for browser tests and debugging.
export const tablet = root ? play(root) : null;

function play(root) {
  var L = JSON.parse(document.getElementById("rr-labels").textContent);
  var standings = standingsFromPage();
  var names = seatNames(L);
  var seatName = names.seatName;
  var canvas = root.querySelector("canvas");
  var el = {
    status: root.querySelector("[data-status]"),
    round: root.querySelector("[data-round]"),
    players: root.querySelector("[data-players]"),
    controls: root.querySelector("[data-controls]"),
    feedback: root.querySelector("[data-feedback]"),
    over: root.querySelector("[data-over]"),
    overTitle: root.querySelector("[data-over-title]"),
    overText: root.querySelector("[data-over-text]"),
  };
  // Where the next piece waits before it is dragged (world units: top left, clear of the mast).
  var DOCK = [-68, 146];
  // A tap this many catch radii from a falling piece is a near miss: say so.
  var NEAR_MISS = 2.2;
  var nearMisses = 0;
  var caught = [];            // pieces this tablet's student caught (for browser tests)

  var view = null;
  var fallingSince = {};      // piece id -> onset (performance.now()) of its first painted fall
  var drag = null;            // {piece, shape, x, y (canvas px)}
  var angle = 0;              // the piece in hand, turned (radians, counterclockwise)
  var feedbackTimer = null;

  function placing() { return view && view.phase === "placing" && view.active === view.you && !view.paused; }

  var scene = createScene(canvas, {
    geometry: L.geometry,
    cargo: L.cargo,
    waveStrength: L.wave_strength,
    zoneStyle: function (v) { return v.you === v.active ? "mine" : "watch"; },
    busy: function () { return drag !== null; },
    onPaint: function (frame, falling) {
      falling.forEach(markFalling);
      var piece = placing() ? nextPiece() : null;
      if (!piece) return;
      if (drag) {
        var w = scene.toWorld(drag.x, drag.y);
        scene.drawPiece(drag.shape, view.you, w[0], w[1], frame.ship[2] + angle, 0.8);
      } else {
        // The piece in hand, turned as the rotate buttons set it: shown before it is dragged.
        scene.drawPiece(piece.shape, view.you, DOCK[0], DOCK[1], angle, 1);
      }
    },
  });

  var table = connectTable(root, {
    onState: function (next, events) {
      names.forgetRemoved(events);
      (events || []).forEach(function (event) {
        if (event.kind === "caught" && event.seat === next.you) caught.push(event.piece);
      });
      view = next;
      scene.setView(next);
      showHowToPlay(next);
      renderPanel();
    },
    onMotion: function (message) { scene.pushMotion(message.frame); },
    onError: function (frame) {
      if (TOLD_AS_THEY_COME.indexOf(frame.code) < 0) return;
      // A drop that did not take, the child's turn still on: say where it goes, by the
      // number the ship shows.
      var dropOn = frame.code === "rejected" && placing() && view.area;
      feedback(dropOn ? fmt(L.drop_on, { n: view.area }) : frame.message);
    },
    onStop: function (message) { showOver(el, message || L.left_title, ""); },
    onStandings: function (frame) {
      standings.update(frame);
      if (view) renderPanel();
    },
  });

  // Called while the scene paints the first frame that shows the piece falling (whole, at
  // full size, its catch ring around it): the next animation frame starts after that paint,
  // and that is the onset, as for a stimulus drawn from a message (whose first paint follows
  // the first of its two requestAnimationFrame callbacks). A second callback here would start
  // the clock one frame late.
  function markFalling(id) {
    if (fallingSince[id] !== undefined) return;
    fallingSince[id] = null;
    requestAnimationFrame(function () { if (fallingSince[id] === null) fallingSince[id] = performance.now(); });
  }

  // ---- the panel (cards, declaration, supply) ---------------------------------------------

  function button(text, onClick, extra) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "btn btn-big" + (extra ? " " + extra : "");
    b.textContent = text;
    b.addEventListener("click", onClick);
    return b;
  }

  // A rotate button: its arrow for the eye, its words for everyone (the arrow is not read out).
  function rotateButton(arrow, words, turn) {
    var b = button("", function () { angle += turn; scene.invalidate(); }, "rr-rotate");
    var picture = document.createElement("span");
    picture.className = "rr-rotate-arrow";
    picture.setAttribute("aria-hidden", "true");
    picture.textContent = arrow;
    b.append(picture, words);
    return b;
  }

  function renderPanel() {
    el.round.textContent = fmt(L.round_n, { n: view.round, total: view.rounds_total });
    el.controls.replaceChildren();
    el.players.replaceChildren();
    view.players.forEach(function (p) {
      var li = document.createElement("li");
      li.className = "rr-player" + (p.seat === view.active ? " is-active" : "") + (p.seat === view.captain ? " is-captain" : "");
      var shown = view.revealed && view.revealed[String(p.seat)] !== undefined ? " · " + fmt(L.card_n, { n: view.revealed[String(p.seat)] }) : "";
      var dot = document.createElement("span");
      dot.className = "owner-dot owner-" + (p.seat % 4);  // the colour of their cargo
      if (p.seat === view.you) dot.title = L.your_colour;
      li.append(dot, seatName(p.seat) + shown + " · " + fmt(L.pieces_left, { n: p.pieces_left }));
      // The cards this player has played, face up for everyone (the last one on top).
      var played = document.createElement("span");
      played.className = "rr-played";
      played.setAttribute("aria-label", L.played_cards);
      (p.played || []).forEach(function (card) {
        var chip = document.createElement("span");
        chip.className = "rr-played-card";
        chip.textContent = String(card);
        played.appendChild(chip);
      });
      if ((p.played || []).length) li.appendChild(played);
      el.players.appendChild(li);
    });
    var mine = view.you;
    var status = "";
    if (view.paused) status = L.paused;
    else if (view.phase === "choosing") {
      var chosen = view.chosen && view.chosen[String(mine)];
      status = chosen ? L.waiting_others : L.choose_card;
      // Round 1: who is captain before it (and settles a tie), and why.
      if (view.round === 1 && view.first_captain !== null && view.first_captain !== undefined) {
        var first = document.createElement("p");
        first.className = "rr-first-captain";
        first.textContent = fmt(L.first_captain, { name: seatName(view.first_captain) });
        el.controls.appendChild(first);
      }
      if (!chosen) (view.cards_left || []).forEach(function (card) {
        el.controls.appendChild(button(String(card), function () { table.act({ kind: "choose_card", card: card }); }, "rr-card"));
      });
    } else if (view.phase === "captain_tie") {
      status = L.captain_tie;
      if (view.tie_chooser === mine) (view.tied || []).forEach(function (seat) {
        el.controls.appendChild(button(seatName(seat), function () { table.act({ kind: "pick_captain", seat: seat }); }));
      });
    } else if (view.phase === "order_tie") {
      status = L.order_tie;
      if (view.captain === mine) (view.tied || []).forEach(function (seat) {
        el.controls.appendChild(button(fmt(L.goes_first, { name: seatName(seat) }), function () {
          table.act({ kind: "order", seats: [seat] });
        }));
      });
    } else if (view.phase === "declaring") {
      status = view.active === mine ? L.declare : fmt(L.their_turn, { name: seatName(view.active) });
      if (view.active === mine) [1, 2].forEach(function (n) {
        el.controls.appendChild(button(fmt(L.declare_n, { n: n }), function () { table.act({ kind: "declare", pieces: n }); }));
      });
    } else if (view.phase === "placing") {
      status = view.active === mine ? L.drag_piece : fmt(L.their_turn, { name: seatName(view.active) });
      if (view.active === mine) {
        // Counterclockwise is a positive angle (the world's y points up): its top leans left.
        el.controls.appendChild(rotateButton("⟲", L.turn_left, Math.PI / 8));
        el.controls.appendChild(rotateButton("⟳", L.turn_right, -Math.PI / 8));
      }
    } else if (view.phase === "settling") status = L.settling;
    else if (view.phase === "catching") status = view.active === mine ? L.catch_it : L.falling;
    el.status.textContent = status;
    if (view.phase === "game_over" || view.ended) {
      showOver(el, overTitle(L, view, { shown: standings.shown(view), seatName: seatName }), L.well_played);
    } else el.over.hidden = true;
  }

  // What to do instead, for a tap on the ship that cannot be played now (null: it can be).
  function whatToDo() {
    var mine = view.you;
    if (view.phase === "choosing") return view.chosen && view.chosen[String(mine)] ? L.waiting_others : L.tap_card;
    if (view.phase === "captain_tie") {
      return view.tie_chooser === mine ? L.tap_captain : fmt(L.wait_for, { name: seatName(view.tie_chooser) });
    }
    if (view.phase === "order_tie") {
      return view.captain === mine ? L.tap_first : fmt(L.wait_for, { name: seatName(view.captain) });
    }
    if (view.phase === "declaring") return view.active === mine ? L.tap_how_many : fmt(L.wait_for, { name: seatName(view.active) });
    if (view.phase === "placing") return view.active === mine ? null : fmt(L.wait_for, { name: seatName(view.active) });
    if (view.phase === "settling") return L.wait_still;
    if (view.phase === "catching") return view.active === mine ? L.catch_it : fmt(L.they_catch, { name: seatName(view.active) });
    return null;
  }

  function nextPiece() {
    var me = view && view.players.find(function (p) { return p.seat === view.you; });
    return me && Array.isArray(me.supply) && me.supply.length ? me.supply[0] : null;
  }

  // ---- input: drag to drop, tap to catch ---------------------------------------------------

  canvas.addEventListener("pointerdown", function (event) {
    if (!view) return;
    if (view.paused) { feedback(L.paused); return; }
    var box = canvas.getBoundingClientRect();
    var px = event.clientX - box.left, py = event.clientY - box.top;
    if (view.phase === "catching" && view.active === view.you) {
      var frame = scene.shown();
      var falling = scene.catchable();
      var best = null, near = false;
      (frame ? frame.pieces : []).forEach(function (p) {
        if (falling.indexOf(p[0]) < 0) return;
        // Where the piece is drawn (kept on screen), with a fingertip-sized target.
        var where = scene.placeOf(p, true);
        var c = scene.toCanvas(where[0], where[1]);
        var d = Math.hypot(c[0] - px, c[1] - py);
        var info = view.pieces[String(p[0])];
        var radius = scene.catchRadius(info ? info.shape : "crate");
        if (d <= radius && (!best || d < best.d)) best = { id: p[0], d: d };
        else if (d <= radius * NEAR_MISS) near = true;
      });
      if (best) {
        var onset = fallingSince[best.id];
        table.act({ kind: "catch", piece: best.id,
                    rt_ms: typeof onset === "number" ? Math.max(0, Math.round(event.timeStamp - onset)) : 0,
                    rtt_ms: Math.min(table.rtt(), 10000) });
      } else if (near) {
        nearMisses += 1;
        feedback(L.near_miss);
      } else feedback(L.catch_it);
      return;
    }
    var piece = placing() ? nextPiece() : null;
    if (piece) {
      drag = { piece: piece.id, shape: piece.shape, x: px, y: py };
      canvas.setPointerCapture(event.pointerId);
      return;
    }
    var instead = whatToDo();
    if (instead) feedback(instead);
  });
  canvas.addEventListener("pointercancel", function () { drag = null; scene.invalidate(); });
  canvas.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var box = canvas.getBoundingClientRect();
    drag.x = event.clientX - box.left;
    drag.y = event.clientY - box.top;
  });
  canvas.addEventListener("pointerup", function () {
    if (!drag) return;
    var w = scene.toWorld(drag.x, drag.y);
    var local = scene.rotate(w, -scene.shipAngle());  // into ship coordinates
    table.act({ kind: "drop", piece: drag.piece, x: Math.round(local[0] * 10) / 10, y: Math.round(local[1] * 10) / 10,
                angle: Math.round(angle * 1000) / 1000 });
    drag = null;
    scene.invalidate();
  });

  function feedback(text) {
    el.feedback.textContent = text;
    el.feedback.className = "ps-feedback feedback-gentle";
    el.feedback.hidden = false;
    clearTimeout(feedbackTimer);
    feedbackTimer = setTimeout(function () { el.feedback.hidden = true; }, 1600);
  }


  return {
    get view() { return view; },
    get motionFrames() { return scene.motionFrames; },
    get paints() { return scene.paints; },
    get ownerColours() { return scene.ownerColours; },
    get fallingSince() { return fallingSince; },
    toCanvas: function (x, y) { return scene.toCanvas(x, y); },
    areaLabels: function () { return scene.areaLabels(); },
    labelRadius: function () { return scene.labelRadius(); },
    placeOf: function (p) { return scene.placeOf(p, true); },
    shown: function () { return scene.shown(); },
    catchRadius: function (shape) { return scene.catchRadius(shape); },
    get smoothingMs() { return scene.smoothingMs; },
    get nearMisses() { return nearMisses; },
    get caught() { return caught.slice(); },
    get dragging() { return drag; },
    get angle() { return angle; },
    shipAngle: function () { return scene.shipAngle(); },
    dock: DOCK,
  };
}
