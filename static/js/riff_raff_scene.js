// Riff Raff's ship drawn on a <canvas> from the server's frames: shared by the tablet (which
// also drags and catches) and the teacher's console and projector (which only watch).
//
// The server is the only authority on where things are: it streams motion frames (about 20 a
// second) and the scene draws 100 ms in the past, interpolating between the two frames around
// that moment, so motion is smooth at 60 Hz.
(function () {
  "use strict";

  // Fallbacks only: the colours come from the page's CSS (--owner-0…), so the palette a
  // data-palette attribute switches to reaches the canvas too.
  var OWNER_FALLBACK = ["#7048e8", "#f76707", "#0ca678", "#d6336c"];
  var SEATS = 4;
  var DELAY_MS = 100;
  // About this many world units (ship, mast and some sea) fit into the canvas.
  var WORLD_WIDTH = 170;
  var WORLD_HEIGHT = 190;

  function lerp(a, b, t) { return a + (b - a) * t; }

  function rotate(p, a) {
    var c = Math.cos(a), s = Math.sin(a);
    return [p[0] * c - p[1] * s, p[0] * s + p[1] * c];
  }

  // options: geometry, cargo (outlines by shape), zoneStyle(view) -> "mine" | "watch" | null,
  // onPaint(ctx, frame) called after the ship and cargo are drawn.
  function createScene(canvas, options) {
    var ctx = canvas.getContext("2d");
    var GEO = options.geometry;
    var frames = [];  // [{at: performance.now() when received, frame}]
    var view = null;
    var scale = 1, originX = 0, originY = 0, width = 0, height = 0;
    var motionFrames = 0;
    var ownerColours = readOwnerColours();

    function readOwnerColours() {
      var style = getComputedStyle(canvas);
      var colours = [];
      for (var seat = 0; seat < SEATS; seat += 1) {
        colours.push(style.getPropertyValue("--owner-" + seat).trim() || OWNER_FALLBACK[seat]);
      }
      return colours;
    }

    function pushFrame(frame) {
      frames.push({ at: performance.now(), frame: frame });
      if (frames.length > 8) frames.shift();
    }

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

    function shown() { return frameAt(performance.now() - DELAY_MS); }

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
      originY = height - 30 * scale;
    }

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

    function turned(points, a) { return points.map(function (p) { return rotate(p, a); }); }

    function drawShip(a) {
      // The sea, then the hull, mast and yards turned by the ship's angle about the pivot.
      var sea = toCanvas(0, GEO.sea_level);
      ctx.fillStyle = "#1c6fd6";
      ctx.fillRect(0, sea[1], width, height);
      ctx.fillStyle = "#8a5a2b";
      polygon(turned(GEO.hull, a));
      ctx.fill();
      var m = GEO.mast;
      ctx.fillStyle = "#6b4423";
      polygon(turned([[m[0][0], m[0][1]], [m[1][0], m[0][1]], [m[1][0], m[1][1]], [m[0][0], m[1][1]]], a));
      ctx.fill();
      GEO.yards.forEach(function (y) {
        polygon(turned([[y[0], y[1]], [y[2], y[3]], [y[2], y[3] + y[4]], [y[0], y[1] + y[4]]], a));
        ctx.fill();
      });
      drawZone(a);
    }

    function drawZone(a) {
      // Where the cargo must go: bold for the student placing it, faint for everyone watching.
      var style = view && view.drop_zone && options.zoneStyle ? options.zoneStyle(view) : null;
      if (!style) return;
      var z = view.drop_zone;
      ctx.strokeStyle = style === "mine" ? "#ffd43b" : "rgb(255 255 255 / 70%)";
      ctx.lineWidth = style === "mine" ? 4 : 2;
      ctx.setLineDash([8, 6]);
      polygon(turned([[z.x_min, z.y], [z.x_max, z.y], [z.x_max, z.y + 16], [z.x_min, z.y + 16]], a));
      ctx.stroke();
      ctx.setLineDash([]);
    }

    function drawPiece(shape, owner, x, y, a, alpha) {
      var outline = options.cargo[shape];
      if (!outline) return;
      ctx.globalAlpha = alpha;
      ctx.fillStyle = ownerColours[owner % SEATS];
      ctx.strokeStyle = "#fff";
      ctx.lineWidth = Math.max(1, outline.radius * scale);
      ctx.lineJoin = "round";
      var corners = outline.vertices.map(function (v) { var r = rotate(v, a); return [x + r[0], y + r[1]]; });
      polygon(corners);
      ctx.fill();
      ctx.stroke();
      drawOwnerSymbol(owner, corners);
      ctx.globalAlpha = 1;
    }

    // Whose cargo it is, by shape as well as colour: white with a dark rim reads on any colour.
    function drawOwnerSymbol(owner, corners) {
      var sx = 0, sy = 0;
      corners.forEach(function (p) { sx += p[0]; sy += p[1]; });
      var centre = toCanvas(sx / corners.length, sy / corners.length);
      var size = Math.max(4, Math.min(3.5 * scale, 12));
      window.SnapclassSymbols.draw(ctx, window.SnapclassSymbols.forOwner(owner), centre[0], centre[1], size, "#fff", "#1c2230");
    }

    function catchable() {
      return (view && view.catchable ? view.catchable : []).map(function (c) { return c.piece; });
    }

    function ring(x, y) {
      var c = toCanvas(x, y);
      ctx.strokeStyle = "#ffd43b";
      ctx.lineWidth = 4;
      ctx.beginPath();
      ctx.arc(c[0], c[1], 14 * scale, 0, Math.PI * 2);
      ctx.stroke();
    }

    var detachedFrames = 0;
    function draw() {
      // A watched table's tile can leave the page (its game ended): then stop drawing. htmx
      // moves a preserved tile out and back within one swap, so allow a moment's absence.
      detachedFrames = canvas.isConnected ? 0 : detachedFrames + 1;
      if (detachedFrames > 120) return;
      requestAnimationFrame(draw);
      if (detachedFrames) return;
      ctx.clearRect(0, 0, width, height);
      var frame = shown();
      if (!frame || !view) return;
      drawShip(frame.ship[2]);
      var falling = catchable();
      frame.pieces.forEach(function (p) {
        var info = view.pieces[String(p[0])];
        if (!info) return;
        drawPiece(info.shape, info.owner, p[1], p[2], p[3], 1);
        if (falling.indexOf(p[0]) >= 0) ring(p[1], p[2]);
      });
      if (options.onPaint) options.onPaint(frame, falling);
    }

    if (window.ResizeObserver) new ResizeObserver(layout).observe(canvas);
    else window.addEventListener("resize", layout);
    layout();
    requestAnimationFrame(draw);

    return {
      setView: function (next) { view = next; if (next.frame) pushFrame(next.frame); },
      pushMotion: function (frame) { motionFrames += 1; pushFrame(frame); },
      get view() { return view; },
      get motionFrames() { return motionFrames; },
      get ownerColours() { return ownerColours.slice(); },
      shown: shown,
      catchable: catchable,
      drawPiece: drawPiece,
      toCanvas: toCanvas,
      toWorld: toWorld,
      rotate: rotate,
      shipAngle: function () { var f = shown(); return f ? f.ship[2] : 0; },
    };
  }

  window.RiffRaffScene = { create: createScene };
})();
