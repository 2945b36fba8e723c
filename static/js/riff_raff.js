// Riff Raff on a tablet: the rocking ship drawn on a <canvas> from the server's frames.
//
// The server is the only authority on where things are: it streams motion frames (about 20 a
// second) and the tablet draws 100 ms in the past, interpolating between the two frames around
// that moment, so motion is smooth at 60 Hz. To place cargo the active student drags their
// next piece onto the ship (rotate with the buttons) and lets go: the drop point and angle go
// to the server in ship coordinates. A piece falling off the ship can be caught by tapping it;
// the catch reaction time runs from the first painted frame that shows it falling (double
// requestAnimationFrame) to the pointerdown event's timeStamp.
(function () {
  "use strict";

  var root = document.querySelector("[data-riff-raff]");
  if (!root) return;
  var L = JSON.parse(document.getElementById("rr-labels").textContent);
  var GEO = L.geometry;
  var canvas = root.querySelector("canvas");
  var ctx = canvas.getContext("2d");
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
  var OWNER_COLOURS = ["#7048e8", "#f76707", "#0ca678", "#d6336c"];
  var DELAY_MS = 100;

  var view = null;
  var frames = [];            // [{at: performance.now() when received, frame}]
  var fallingSince = {};      // piece id -> onset (performance.now()) of its first painted fall
  var drag = null;            // {piece, shape, x, y (canvas px), angle}
  var angle = 0;
  var feedbackTimer = null;
  var motionFrames = 0;       // streamed physics frames received (for tests and debugging)

  function fmt(template, values) {
    return template.replace(/%\((\w+)\)[sd]/g, function (_m, key) {
      return values[key] === undefined ? "" : values[key];
    });
  }
  function seatName(seat) { return L.names[String(seat)] || fmt(L.player_n, { n: seat + 1 }); }

  var table = window.SnapclassTable.connect(root, {
    onState: function (next) {
      view = next;
      if (next.frame) pushFrame(next.frame);
      renderPanel();
    },
    onMotion: function (message) { motionFrames += 1; pushFrame(message.frame); },
    onError: function (frame) {
      if (["rejected", "paused", "slow_down", "not_saved"].indexOf(frame.code) >= 0) feedback(frame.message);
    },
    onStop: function (message) { showOver(message || L.left_title, ""); },
  });

  // ---- frames and drawing ------------------------------------------------------------------

  function pushFrame(frame) {
    frames.push({ at: performance.now(), frame: frame });
    if (frames.length > 8) frames.shift();
  }

  function lerp(a, b, t) { return a + (b - a) * t; }

  function frameAt(time) {
    if (!frames.length) return null;
    var i = frames.length - 1;
    while (i > 0 && frames[i - 1].at > time) i -= 1;
    var later = frames[i];
    var earlier = i > 0 ? frames[i - 1] : later;
    if (later.at <= time || earlier === later) return later.frame;
    var t = (time - earlier.at) / Math.max(1, later.at - earlier.at);
    var before = {};
    earlier.frame.pieces.forEach(function (p) { before[p[0]] = p; });
    return {
      ship: [0, 0, lerp(earlier.frame.ship[2], later.frame.ship[2], t)],
      pieces: later.frame.pieces.map(function (p) {
        var q = before[p[0]];
        return q ? [p[0], lerp(q[1], p[1], t), lerp(q[2], p[2], t), lerp(q[3], p[3], t)] : p;
      }),
    };
  }

  var scale = 1;
  var originX = 0;
  var originY = 0;
  function layout() {
    var box = canvas.getBoundingClientRect();
    var ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(box.width * ratio);
    canvas.height = Math.round(box.height * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    // Fit about 170 × 190 world units (ship, mast and some sea) into the canvas.
    scale = Math.min(box.width / 170, box.height / 190);
    originX = box.width / 2;
    originY = box.height - 30 * scale;
  }
  window.addEventListener("resize", layout);

  function toCanvas(x, y) { return [originX + x * scale, originY - y * scale]; }
  function toWorld(px, py) { return [(px - originX) / scale, (originY - py) / scale]; }

  function polygon(points) {
    ctx.beginPath();
    points.forEach(function (p, i) {
      var c = toCanvas(p[0], p[1]);
      if (i === 0) ctx.moveTo(c[0], c[1]); else ctx.lineTo(c[0], c[1]);
    });
    ctx.closePath();
  }

  function rotate(p, a) {
    var c = Math.cos(a), s = Math.sin(a);
    return [p[0] * c - p[1] * s, p[0] * s + p[1] * c];
  }

  function drawShip(a) {
    // The sea, then the hull, mast and yards turned by the ship's angle about the pivot.
    var sea = toCanvas(0, GEO.sea_level);
    ctx.fillStyle = "#1c6fd6";
    ctx.fillRect(0, sea[1], canvas.width, canvas.height);
    ctx.fillStyle = "#8a5a2b";
    polygon(GEO.hull.map(function (p) { return rotate(p, a); }));
    ctx.fill();
    var m = GEO.mast;
    ctx.fillStyle = "#6b4423";
    polygon([[m[0][0], m[0][1]], [m[1][0], m[0][1]], [m[1][0], m[1][1]], [m[0][0], m[1][1]]].map(function (p) { return rotate(p, a); }));
    ctx.fill();
    GEO.yards.forEach(function (y) {
      polygon([[y[0], y[1]], [y[2], y[3]], [y[2], y[3] + y[4]], [y[0], y[1] + y[4]]].map(function (p) { return rotate(p, a); }));
      ctx.fill();
    });
    if (view && view.drop_zone && view.you === view.active) {
      var z = view.drop_zone;
      ctx.strokeStyle = "#ffd43b";
      ctx.lineWidth = 4;
      ctx.setLineDash([8, 6]);
      polygon([[z.x_min, z.y], [z.x_max, z.y], [z.x_max, z.y + 16], [z.x_min, z.y + 16]].map(function (p) { return rotate(p, a); }));
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }

  function drawPiece(shape, owner, x, y, a, alpha) {
    var outline = L.cargo[shape];
    if (!outline) return;
    ctx.globalAlpha = alpha;
    ctx.fillStyle = OWNER_COLOURS[owner % OWNER_COLOURS.length];
    ctx.strokeStyle = "#fff";
    ctx.lineWidth = Math.max(1, outline.radius * scale);
    ctx.lineJoin = "round";
    polygon(outline.vertices.map(function (v) { var r = rotate(v, a); return [x + r[0], y + r[1]]; }));
    ctx.fill();
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  function catchable() {
    return (view && view.catchable ? view.catchable : []).map(function (c) { return c.piece; });
  }

  function draw() {
    requestAnimationFrame(draw);
    var box = canvas.getBoundingClientRect();
    ctx.clearRect(0, 0, box.width, box.height);
    var frame = frameAt(performance.now() - DELAY_MS);
    if (!frame || !view) return;
    drawShip(frame.ship[2]);
    var falling = catchable();
    frame.pieces.forEach(function (p) {
      var info = view.pieces[String(p[0])];
      if (!info) return;
      drawPiece(info.shape, info.owner, p[1], p[2], p[3], 1);
      if (falling.indexOf(p[0]) >= 0) {
        var c = toCanvas(p[1], p[2]);
        ctx.strokeStyle = "#ffd43b";
        ctx.lineWidth = 4;
        ctx.beginPath();
        ctx.arc(c[0], c[1], 14 * scale, 0, Math.PI * 2);
        ctx.stroke();
        markFalling(p[0]);
      }
    });
    if (drag) {
      var w = toWorld(drag.x, drag.y);
      drawPiece(drag.shape, view.you, w[0], w[1], frame.ship[2] + angle, 0.8);
    }
  }

  function markFalling(id) {
    if (fallingSince[id] !== undefined) return;
    fallingSince[id] = null;
    requestAnimationFrame(function () {
      requestAnimationFrame(function () { if (fallingSince[id] === null) fallingSince[id] = performance.now(); });
    });
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

  function renderPanel() {
    el.round.textContent = fmt(L.round_n, { n: view.round, total: view.rounds_total });
    el.controls.replaceChildren();
    el.players.replaceChildren();
    view.players.forEach(function (p) {
      var li = document.createElement("li");
      li.className = "rr-player" + (p.seat === view.active ? " is-active" : "") + (p.seat === view.captain ? " is-captain" : "");
      var shown = view.revealed && view.revealed[String(p.seat)] !== undefined ? " · " + view.revealed[String(p.seat)] : "";
      li.textContent = seatName(p.seat) + shown + " · " + fmt(L.pieces_left, { n: p.pieces_left });
      el.players.appendChild(li);
    });
    var mine = view.you;
    var status = "";
    if (view.paused) status = L.paused;
    else if (view.phase === "choosing") {
      var chosen = view.chosen && view.chosen[String(mine)];
      status = chosen ? L.waiting_others : L.choose_card;
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
        el.controls.appendChild(button("⟲", function () { angle -= Math.PI / 8; }, "rr-rotate"));
        el.controls.appendChild(button("⟳", function () { angle += Math.PI / 8; }, "rr-rotate"));
      }
    } else if (view.phase === "settling") status = L.settling;
    else if (view.phase === "catching") status = view.active === mine ? L.catch_it : L.falling;
    el.status.textContent = status;
    if (view.phase === "game_over" || view.ended) {
      var winners = view.winners || [];
      showOver(winners.indexOf(mine) >= 0 ? L.you_win : winners.length ? fmt(L.winner_is, { name: winners.map(seatName).join(" & ") }) : L.ended, L.well_played);
    } else el.over.hidden = true;
  }

  function nextPiece() {
    var me = view && view.players.find(function (p) { return p.seat === view.you; });
    return me && Array.isArray(me.supply) && me.supply.length ? me.supply[0] : null;
  }

  // ---- input: drag to drop, tap to catch ---------------------------------------------------

  canvas.addEventListener("pointerdown", function (event) {
    if (!view || view.paused) return;
    var box = canvas.getBoundingClientRect();
    var px = event.clientX - box.left, py = event.clientY - box.top;
    if (view.phase === "catching" && view.active === view.you) {
      var frame = frameAt(performance.now() - DELAY_MS);
      var best = null;
      (frame ? frame.pieces : []).forEach(function (p) {
        if (catchable().indexOf(p[0]) < 0) return;
        var c = toCanvas(p[1], p[2]);
        var d = Math.hypot(c[0] - px, c[1] - py);
        if (d < 40 && (!best || d < best.d)) best = { id: p[0], d: d };
      });
      if (best) {
        var onset = fallingSince[best.id];
        table.act({ kind: "catch", piece: best.id,
                    rt_ms: typeof onset === "number" ? Math.max(0, Math.round(event.timeStamp - onset)) : 0,
                    rtt_ms: Math.min(table.rtt(), 10000) });
      }
      return;
    }
    if (view.phase === "placing" && view.active === view.you) {
      var piece = nextPiece();
      if (!piece) return;
      drag = { piece: piece.id, shape: piece.shape, x: px, y: py };
      canvas.setPointerCapture(event.pointerId);
    }
  });
  canvas.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var box = canvas.getBoundingClientRect();
    drag.x = event.clientX - box.left;
    drag.y = event.clientY - box.top;
  });
  canvas.addEventListener("pointerup", function () {
    if (!drag) return;
    var w = toWorld(drag.x, drag.y);
    var frame = frameAt(performance.now() - DELAY_MS);
    var shipAngle = frame ? frame.ship[2] : 0;
    var local = rotate(w, -shipAngle);  // into ship coordinates
    table.act({ kind: "drop", piece: drag.piece, x: Math.round(local[0] * 10) / 10, angle: Math.round(angle * 1000) / 1000 });
    drag = null;
  });

  function feedback(text) {
    el.feedback.textContent = text;
    el.feedback.className = "ps-feedback feedback-gentle";
    el.feedback.hidden = false;
    clearTimeout(feedbackTimer);
    feedbackTimer = setTimeout(function () { el.feedback.hidden = true; }, 1600);
  }

  function showOver(title, text) {
    el.overTitle.textContent = title;
    el.overText.textContent = text;
    el.over.hidden = false;
  }

  layout();
  requestAnimationFrame(draw);

  // Read-only handle for browser tests and debugging.
  window.riffRaff = {
    get view() { return view; },
    get motionFrames() { return motionFrames; },
    get fallingSince() { return fallingSince; },
    toCanvas: function (x, y) { return toCanvas(x, y); },
    shipAngle: function () { var f = frameAt(performance.now() - DELAY_MS); return f ? f.ship[2] : 0; },
  };
})();
