// Riff Raff's ship drawn on a <canvas> from the server's frames: shared by the tablet (which
// also drags and catches) and the teacher's console and projector (which only watch).
//
// The server is the only authority on where things are: it streams motion frames (20 a
// second). The scene draws a little in the past and interpolates between the two frames
// around that moment, by the frames' own game time (``sim_ms``), so motion is smooth at
// 60 Hz. How far in the past follows the measured arrival jitter: the 98th percentile of
// how late frames arrive, plus one frame's gap, so the next frame has nearly always arrived.
//
// Everything is drawn here, nothing downloaded: a wooden ship with planks, a mast with three
// yardarms and rigging, the ten numbered areas, a sea whose waves move with the wave
// strength, and cargo that looks like what it is (crates, barrels, sacks, planks, kegs) in
// its owner's colour with the owner's shape mark.
import { symbols } from "./colour_symbols.js";

// Fallbacks only: the colours come from the page's CSS (--owner-0…), so the palette a
// data-palette attribute switches to reaches the canvas too.
var OWNER_FALLBACK = ["#7048e8", "#f76707", "#0ca678", "#d6336c"];
var SEATS = 4;
// Smoothing: never less than this (ms), never more; one frame gap at 20 a second, and a
// 16 ms physics tick on top (a frame waits for a tick).
var DELAY_MIN = 80, DELAY_MAX = 300, FRAME_GAP = 66, JITTER_WINDOW = 120;
// About this many world units fit into the canvas: the ship, the mast and the sea out to
// where cargo falls (the deck ends are at ±60, cargo lands up to ~±95).
var WORLD_WIDTH = 200;
var WORLD_HEIGHT = 190;
// A falling piece is always drawn this many pixels inside the canvas edges, so a child can
// see and tap it (the catch uses the same drawn place).
var EDGE_PX = 10;

var WOOD = "#9a6534", WOOD_DARK = "#6b4423", WOOD_LIGHT = "#c08a4a", ROPE = "#4a3420";
var SEA = "#1c6fd6", SEA_DEEP = "#0f4c9e", FOAM = "#e3f2ff";
// While nothing moves but the sea (no frame arriving or being smoothed, nothing falling,
// nothing dragged), the waves are drawn this often instead of every display frame: a
// tablet's battery and a console of many ships pay for every paint. With reduced motion the
// sea stands still and a calm scene is not painted again until something changes.
var CALM_FRAME_MS = 66;

function lerp(a, b, t) { return a + (b - a) * t; }

function rotate(p, a) {
  var c = Math.cos(a), s = Math.sin(a);
  return [p[0] * c - p[1] * s, p[0] * s + p[1] * c];
}

export function percentile(values, q) {
  if (!values.length) return 0;
  var sorted = values.slice().sort(function (a, b) { return a - b; });
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

// options: geometry, cargo (outlines by shape), zoneStyle(view) -> "mine" | "watch" | null,
// waveStrength (0..1), onPaint(frame, falling) called after the ship and cargo are drawn,
// busy() -> true while the page draws something moving of its own (a dragged piece).
export function createScene(canvas, options) {
  var ctx = canvas.getContext("2d");
  var reducedMotion = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  var GEO = options.geometry;
  var waveStrength = typeof options.waveStrength === "number" ? options.waveStrength : 0.4;
  var frames = [];  // [{sim: game ms, at: arrival (performance.now()), frame}]
  var lags = [];    // arrival - game time, for the frames since the last rest
  var lastArrival = -Infinity;
  var delay = DELAY_MIN + FRAME_GAP;
  var view = null;
  var scale = 1, originX = 0, originY = 0, width = 0, height = 0;
  var motionFrames = 0;
  var ownerColours = readOwnerColours();
  var stale = true;  // something changed since the last paint
  var paintedAt = -Infinity;
  var paints = 0;

  function readOwnerColours() {
    var style = getComputedStyle(canvas);
    var colours = [];
    for (var seat = 0; seat < SEATS; seat += 1) {
      colours.push(style.getPropertyValue("--owner-" + seat).trim() || OWNER_FALLBACK[seat]);
    }
    return colours;
  }

  // ---- frames and smoothing --------------------------------------------------------------

  function pushFrame(frame) {
    var now = performance.now();
    var sim = typeof frame.sim_ms === "number" ? frame.sim_ms : null;
    if (now - lastArrival > 1000 || sim === null) lags = [];  // a rest or pause: start again
    lastArrival = now;
    if (sim !== null) {
      if (frames.length && frames[frames.length - 1].sim !== null && sim < frames[frames.length - 1].sim) frames = [];
      lags.push(now - sim);
      if (lags.length > JITTER_WINDOW) lags.shift();
      var fastest = Math.min.apply(null, lags);
      var late = lags.map(function (lag) { return lag - fastest; });
      delay = Math.max(DELAY_MIN, Math.min(DELAY_MAX, percentile(late, 0.98) + FRAME_GAP));
    }
    frames.push({ sim: sim, at: now, frame: frame });
    if (frames.length > 16) frames.shift();
    stale = true;
  }

  // The game time shown now: the fastest-arriving frame fixes the clock, then ``delay``.
  function shownSim() {
    if (!lags.length) return null;
    return performance.now() - Math.min.apply(null, lags) - delay;
  }

  function interpolate(earlier, later, t) {
    var before = {};
    earlier.pieces.forEach(function (p) { before[p[0]] = p; });
    return {
      ship: [0, 0, lerp(earlier.ship[2], later.ship[2], t)],
      pieces: later.pieces.map(function (p) {
        var q = before[p[0]];
        return q ? [p[0], lerp(q[1], p[1], t), lerp(q[2], p[2], t), lerp(q[3], p[3], t)] : p;
      }),
    };
  }

  function shown() {
    if (!frames.length) return null;
    var sim = shownSim();
    var last = frames[frames.length - 1];
    if (sim === null || last.sim === null || sim >= last.sim) return last.frame;
    var i = frames.length - 1;
    while (i > 0 && frames[i - 1].sim !== null && frames[i - 1].sim > sim) i -= 1;
    var later = frames[i];
    var earlier = i > 0 ? frames[i - 1] : later;
    if (earlier === later || earlier.sim === null) return later.frame;
    var t = (sim - earlier.sim) / Math.max(1, later.sim - earlier.sim);
    return interpolate(earlier.frame, later.frame, Math.max(0, Math.min(1, t)));
  }

  // ---- coordinates -----------------------------------------------------------------------

  function layout() {
    ownerColours = readOwnerColours();
    var box = canvas.getBoundingClientRect();
    var ratio = window.devicePixelRatio || 1;
    width = box.width;
    height = box.height;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    scale = Math.min(width / WORLD_WIDTH, height / WORLD_HEIGHT);
    originX = width / 2;
    originY = height - 26 * scale;
    stale = true;
  }

  function toCanvas(x, y) { return [originX + x * scale, originY - y * scale]; }
  function toWorld(px, py) { return [(px - originX) / scale, (originY - py) / scale]; }

  // How far a piece reaches from its centre (world units), whichever way it is turned.
  function reach(shape) {
    var outline = options.cargo[shape];
    if (!outline) return 6;
    var far = 0;
    outline.vertices.forEach(function (v) { far = Math.max(far, Math.hypot(v[0], v[1])); });
    return far + outline.radius;
  }

  // Where a piece is drawn: where the server has it, except that a falling piece is kept
  // whole inside the canvas until it is caught or lost.
  function placeOf(p, falling) {
    var x = p[1], y = p[2];
    if (falling && view) {
      var info = view.pieces[String(p[0])];
      var margin = (info ? reach(info.shape) : 6) + EDGE_PX / scale;
      var low = toWorld(0, height), high = toWorld(width, 0);
      x = Math.max(low[0] + margin, Math.min(high[0] - margin, x));
      y = Math.max(low[1] + margin, Math.min(high[1] - margin, y));
    }
    return [x, y];
  }

  function pathOf(points) {
    ctx.beginPath();
    points.forEach(function (p, i) {
      var c = toCanvas(p[0], p[1]);
      if (i === 0) ctx.moveTo(c[0], c[1]); else ctx.lineTo(c[0], c[1]);
    });
    ctx.closePath();
  }

  function line(a, b, colour, px) {
    var ca = toCanvas(a[0], a[1]), cb = toCanvas(b[0], b[1]);
    ctx.strokeStyle = colour;
    ctx.lineWidth = px;
    ctx.beginPath();
    ctx.moveTo(ca[0], ca[1]);
    ctx.lineTo(cb[0], cb[1]);
    ctx.stroke();
  }

  function turned(points, a) { return points.map(function (p) { return rotate(p, a); }); }
  function box(x0, y0, x1, y1) { return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]; }

  // ---- the sea ---------------------------------------------------------------------------

  // The water line at world x: waves as tall and as quick as the wave strength.
  function waveY(x, t, shift) {
    var amp = 0.6 + 1.9 * waveStrength;
    var speed = 0.6 + 2.2 * waveStrength;
    return GEO.sea_level + amp * Math.sin(x / 11 + t * speed + shift) + amp * 0.4 * Math.sin(x / 5.3 - t * speed * 1.3 + shift);
  }

  function drawSea(t, front) {
    var left = toWorld(0, 0)[0] - 5, right = toWorld(width, 0)[0] + 5;
    var shift = front ? 2.1 : 0;
    var lift = front ? -1.2 : 1.8;
    ctx.beginPath();
    for (var x = left; x <= right; x += 2) {
      var c = toCanvas(x, waveY(x, t, shift) + lift);
      if (x === left) ctx.moveTo(c[0], c[1]); else ctx.lineTo(c[0], c[1]);
    }
    ctx.lineTo(width, height);
    ctx.lineTo(0, height);
    ctx.closePath();
    var top = toCanvas(0, GEO.sea_level + 6)[1];
    var fill = ctx.createLinearGradient(0, top, 0, height);
    fill.addColorStop(0, front ? "rgb(40 130 230 / 88%)" : SEA);
    fill.addColorStop(1, SEA_DEEP);
    ctx.fillStyle = fill;
    ctx.fill();
    if (front) {
      ctx.strokeStyle = FOAM;
      ctx.lineWidth = Math.max(1.5, 0.5 * scale);
      ctx.stroke();
    }
  }

  // ---- the ship --------------------------------------------------------------------------

  function hullHalf(y) {
    var hull = GEO.hull;  // bottom left, bottom right, deck right, deck left
    var bottom = hull[1][0], deck = hull[2][0], deckY = hull[2][1];
    return bottom + (deck - bottom) * (y / deckY);
  }

  function drawRigging(a, t) {
    var top = GEO.mast[1][1], deckY = GEO.hull[2][1], deckHalf = GEO.hull[2][0];
    var px = Math.max(1, 0.35 * scale);
    // Stays from the masthead to bow and stern, shrouds from each yardarm's ends.
    [[-deckHalf + 2, deckY], [deckHalf - 2, deckY]].forEach(function (end) {
      line(rotate([0, top], a), rotate(end, a), ROPE, px);
    });
    GEO.yards.forEach(function (y, level) {
      var below = level === 0 ? deckY : GEO.yards[level - 1][1] + y[4];
      var belowHalf = level === 0 ? deckHalf - 8 : -GEO.yards[level - 1][0];
      [-1, 1].forEach(function (side) {
        line(rotate([side * -y[0], y[1]], a), rotate([side * belowHalf, below], a), ROPE, px);
        line(rotate([side * -y[0], y[1]], a), rotate([0, top], a), ROPE, px * 0.8);
      });
    });
    // A pennant at the masthead, fluttering.
    var flutter = Math.sin(t * (2 + 3 * waveStrength)) * 1.5;
    ctx.fillStyle = "#e03131";
    pathOf(turned([[0, top + 6], [14, top + 3 + flutter], [0, top]], a));
    ctx.fill();
  }

  function drawHull(a) {
    var deckY = GEO.hull[2][1];
    ctx.fillStyle = WOOD;
    pathOf(turned(GEO.hull, a));
    ctx.fill();
    // A light band under the rail, where the deck areas' numbers sit.
    var band = [[-hullHalf(15), 15], [hullHalf(15), 15], [hullHalf(21), 21], [-hullHalf(21), 21]];
    ctx.fillStyle = WOOD_LIGHT;
    pathOf(turned(band, a));
    ctx.fill();
    // Planks along the hull.
    [4, 8, 12].forEach(function (y) {
      line(rotate([-hullHalf(y), y], a), rotate([hullHalf(y), y], a), WOOD_DARK, Math.max(1, 0.3 * scale));
    });
    // Plank joints, staggered like a real hull.
    [[2, 6, -20], [6, 10, 14], [10, 14, -6], [14, 15, 26]].forEach(function (joint) {
      line(rotate([joint[2], joint[0]], a), rotate([joint[2], joint[1]], a), WOOD_DARK, Math.max(1, 0.25 * scale));
    });
    ctx.strokeStyle = WOOD_DARK;
    ctx.lineWidth = Math.max(1.5, 0.5 * scale);
    pathOf(turned(GEO.hull, a));
    ctx.stroke();
    // The rail along the deck.
    line(rotate([-GEO.hull[2][0] - 1, deckY], a), rotate([GEO.hull[2][0] + 1, deckY], a), WOOD_DARK, Math.max(2, 1.2 * scale));
  }

  function drawMast(a) {
    var m = GEO.mast;
    ctx.fillStyle = WOOD_DARK;
    pathOf(turned(box(m[0][0] - 0.4, m[0][1], m[1][0] + 0.4, m[1][1]), a));
    ctx.fill();
    ctx.fillStyle = WOOD_LIGHT;
    pathOf(turned(box(m[0][0] + 0.3, m[0][1], m[0][0] + 1.1, m[1][1] - 1), a));
    ctx.fill();
    GEO.yards.forEach(function (y) {
      ctx.fillStyle = WOOD;
      pathOf(turned(box(y[0], y[1] - y[4], y[2], y[1] + y[4]), a));
      ctx.fill();
      ctx.strokeStyle = WOOD_DARK;
      ctx.lineWidth = Math.max(1, 0.3 * scale);
      ctx.stroke();
    });
  }

  // Each area's number where a child looks for it: on the hull under the deck areas, under
  // the yardarm for the yardarm areas. The area the active player loads is yellow.
  function areaLabels(a) {
    var boxes = GEO.area_boxes || {};
    return Object.keys(boxes).map(function (key) {
      var b = boxes[key];
      var deck = b[2] === GEO.hull[2][1];
      var at = [(b[0] + b[1]) / 2, deck ? 18 : b[2] - 7.5];
      var world = rotate(at, a);
      return { area: Number(key), ship: at, world: world, canvas: toCanvas(world[0], world[1]) };
    });
  }

  function labelRadius() { return Math.max(11, 3.6 * scale); }

  function drawAreaNumbers(a) {
    var active = view && view.drop_zone ? view.drop_zone.area : null;
    var r = labelRadius();
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = "900 " + Math.round(r * 1.15) + "px system-ui, sans-serif";
    areaLabels(a).forEach(function (label) {
      var c = label.canvas;
      ctx.beginPath();
      ctx.arc(c[0], c[1], r, 0, Math.PI * 2);
      ctx.fillStyle = label.area === active ? "#ffd43b" : "#fffdf5";
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = WOOD_DARK;
      ctx.stroke();
      ctx.fillStyle = "#2b1a0c";
      ctx.fillText(String(label.area), c[0], c[1] + 1);
    });
    // Where one area meets the next on the deck: small posts.
    var deckY = GEO.hull[2][1];
    [-30, 30].forEach(function (x) {
      line(rotate([x, deckY], a), rotate([x, deckY + 3], a), WOOD_DARK, Math.max(1.5, 0.6 * scale));
    });
  }

  function drawZone(a) {
    // Where the cargo must go: bold for the student placing it, faint for everyone watching.
    var style = view && view.drop_zone && options.zoneStyle ? options.zoneStyle(view) : null;
    if (!style) return;
    var z = view.drop_zone;
    ctx.strokeStyle = style === "mine" ? "#ffd43b" : "rgb(255 255 255 / 70%)";
    ctx.lineWidth = style === "mine" ? 4 : 2;
    ctx.setLineDash([8, 6]);
    pathOf(turned(box(z.x_min, z.y, z.x_max, z.y + 16), a));
    ctx.stroke();
    ctx.setLineDash([]);
  }

  // ---- cargo -----------------------------------------------------------------------------

  function drawPiece(shape, owner, x, y, a, alpha) {
    var outline = options.cargo[shape];
    if (!outline) return;
    var colour = ownerColours[owner % SEATS];
    function at(v) { var r = rotate(v, a); return [x + r[0], y + r[1]]; }
    function mark(from, to, px) { line(at(from), at(to), "rgb(0 0 0 / 38%)", Math.max(1, px * scale)); }
    ctx.globalAlpha = alpha;
    ctx.lineJoin = "round";
    var corners = outline.vertices.map(at);
    // The true size is the outline plus its rounding: a stroke that wide in the same colour.
    pathOf(corners);
    ctx.fillStyle = colour;
    ctx.fill();
    if (outline.radius) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = 2 * outline.radius * scale;
      ctx.stroke();
    }
    ctx.lineWidth = Math.max(1.5, 0.45 * scale);
    ctx.strokeStyle = "#fff";
    if (!outline.radius) ctx.stroke();
    if (shape === "crate") {
      // A wooden crate: a frame and a cross brace.
      pathOf([at([-4.6, -4.6]), at([4.6, -4.6]), at([4.6, 4.6]), at([-4.6, 4.6])]);
      ctx.strokeStyle = "rgb(0 0 0 / 38%)";
      ctx.lineWidth = Math.max(1, 0.5 * scale);
      ctx.stroke();
      mark([-4.6, -4.6], [4.6, 4.6], 0.5);
      mark([-4.6, 4.6], [4.6, -4.6], 0.5);
    } else if (shape === "barrel") {
      // A barrel standing up: hoops and staves.
      mark([-4.8, 3.6], [4.8, 3.6], 0.7);
      mark([-4.8, -3.6], [4.8, -3.6], 0.7);
      mark([-1.6, -6], [-1.6, 6], 0.3);
      mark([1.6, -6], [1.6, 6], 0.3);
    } else if (shape === "sack") {
      // A sack lying down, tied at one end.
      mark([5, -4.5], [5, 4.5], 0.8);
      mark([-6, 2], [-2, 3], 0.3);
      mark([-5, -2], [0, -2.8], 0.3);
      pathOf([at([7.5, 0]), at([11, 2.6]), at([11, -2.6])]);
      ctx.fillStyle = colour;
      ctx.fill();
    } else if (shape === "plank") {
      // A plank: wood grain and a nail at each end.
      mark([-16, 0.4], [9, 0.4], 0.2);
      mark([-8, -0.6], [15, -0.6], 0.2);
      [-15.5, 15.5].forEach(function (nx) {
        var c = toCanvas.apply(null, at([nx, 0]));
        ctx.fillStyle = "rgb(0 0 0 / 45%)";
        ctx.beginPath();
        ctx.arc(c[0], c[1], Math.max(1.2, 0.45 * scale), 0, Math.PI * 2);
        ctx.fill();
      });
    } else if (shape === "keg") {
      // A small keg: two hoops and its bung.
      mark([-5.5, 2.6], [5.5, 2.6], 0.6);
      mark([-5.5, -2.6], [5.5, -2.6], 0.6);
    }
    drawOwnerSymbol(owner, at([0, 0]), shape === "plank" ? 2.6 : 3.5);
    ctx.globalAlpha = 1;
  }

  // Whose cargo it is, by shape as well as colour: white with a dark rim reads on any colour.
  function drawOwnerSymbol(owner, centre, size) {
    var c = toCanvas(centre[0], centre[1]);
    var px = Math.max(4, Math.min(size * scale, 12));
    symbols.draw(ctx, symbols.forOwner(owner), c[0], c[1], px, "#fff", "#1c2230");
  }

  function catchable() {
    return (view && view.catchable ? view.catchable : []).map(function (c) { return c.piece; });
  }

  // The catch target: at least a fingertip (48 px), larger for a large piece.
  function catchRadius(shape) { return Math.max(48, reach(shape) * scale + 14); }

  function ring(x, y, radius, t) {
    var c = toCanvas(x, y);
    var pulse = stillSea() ? 1 : 0.85 + 0.15 * Math.sin(t * 8);
    ctx.strokeStyle = "#ffd43b";
    ctx.lineWidth = 5;
    ctx.beginPath();
    ctx.arc(c[0], c[1], radius * pulse, 0, Math.PI * 2);
    ctx.stroke();
  }

  function stillSea() { return Boolean(reducedMotion && reducedMotion.matches); }

  // Whether this display frame must be painted (see CALM_FRAME_MS).
  function paintDue(now) {
    var moving = stale || now - lastArrival < delay + FRAME_GAP || catchable().length > 0
      || (options.busy && options.busy());
    if (moving) return true;
    return !stillSea() && now - paintedAt >= CALM_FRAME_MS;
  }

  var detachedFrames = 0;
  function draw() {
    // A watched table's tile can leave the page (its game ended): then stop drawing. htmx
    // moves a preserved tile out and back within one swap, so allow a moment's absence.
    detachedFrames = canvas.isConnected ? 0 : detachedFrames + 1;
    if (detachedFrames > 120) return;
    requestAnimationFrame(draw);
    if (detachedFrames) return;
    // A canvas with no room (its box collapsed, or not laid out yet) has no scale: the sea's
    // walk across it from toWorld would never end.
    if (!(scale > 0)) return;
    var now = performance.now();
    if (!paintDue(now)) return;
    stale = false;
    paintedAt = now;
    paints += 1;
    ctx.clearRect(0, 0, width, height);
    var t = stillSea() ? 0 : now / 1000;
    var frame = shown();
    drawSea(t, false);
    if (!frame || !view) { drawSea(t, true); return; }
    var a = frame.ship[2];
    drawRigging(a, t);
    drawHull(a);
    drawMast(a);
    drawAreaNumbers(a);
    drawZone(a);
    var falling = catchable();
    var fallers = [];
    frame.pieces.forEach(function (p) {
      var info = view.pieces[String(p[0])];
      if (!info) return;
      var isFalling = falling.indexOf(p[0]) >= 0;
      var where = placeOf(p, isFalling);
      if (isFalling) fallers.push([info, where, p]);
      else drawPiece(info.shape, info.owner, where[0], where[1], p[3], 1);
    });
    drawSea(t, true);
    // Falling cargo over the sea, so it stays in sight until it is caught or lost.
    fallers.forEach(function (f) {
      drawPiece(f[0].shape, f[0].owner, f[1][0], f[1][1], f[2][3], 1);
      ring(f[1][0], f[1][1], catchRadius(f[0].shape), t);
    });
    if (options.onPaint) options.onPaint(frame, falling);
  }

  if (window.ResizeObserver) new ResizeObserver(layout).observe(canvas);
  else window.addEventListener("resize", layout);
  if (reducedMotion && reducedMotion.addEventListener) {
    reducedMotion.addEventListener("change", function () { stale = true; });
  }
  layout();
  requestAnimationFrame(draw);

  return {
    setView: function (next) {
      view = next;
      stale = true;
      // A state repeats the frame it was sent with: only a newer one is motion.
      var last = frames.length ? frames[frames.length - 1] : null;
      var repeated = last && next.frame && typeof next.frame.sim_ms === "number" && last.sim === next.frame.sim_ms;
      if (next.frame && !repeated) pushFrame(next.frame);
    },
    // The page changed what it draws over the ship (the piece in hand turned): paint again.
    invalidate: function () { stale = true; },
    pushMotion: function (frame) { motionFrames += 1; pushFrame(frame); },
    get view() { return view; },
    get motionFrames() { return motionFrames; },
    get paints() { return paints; },
    get ownerColours() { return ownerColours.slice(); },
    get smoothingMs() { return delay; },
    shown: shown,
    catchable: catchable,
    catchRadius: catchRadius,
    placeOf: placeOf,
    areaLabels: function () { var f = shown(); return areaLabels(f ? f.ship[2] : 0); },
    labelRadius: labelRadius,
    drawPiece: drawPiece,
    toCanvas: toCanvas,
    toWorld: toWorld,
    rotate: rotate,
    shipAngle: function () { var f = shown(); return f ? f.ship[2] : 0; },
  };
}
