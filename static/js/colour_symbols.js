// A shape for every game colour, so a colour never carries meaning alone: a game prints it
// on its number cards, or on each player's cargo (the same shape beside their name).
// One outline per shape, drawn both as SVG (cards) and on a canvas (the ship).
function star() {
  var points = [];
  for (var i = 0; i < 10; i += 1) {
    var r = i % 2 ? 0.45 : 1;
    var a = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push([r * Math.cos(a), r * Math.sin(a) + 0.1]);
  }
  return points;
}

// Outlines in a box from -1 to 1, y down; null is a circle.
export const OUTLINES = {
  circle: null,
  triangle: [[0, -1], [1, 0.8], [-1, 0.8]],
  square: [[-0.8, -0.8], [0.8, -0.8], [0.8, 0.8], [-0.8, 0.8]],
  diamond: [[0, -1], [0.85, 0], [0, 1], [-0.85, 0]],
  star: star(),
};

// The game colours (card faces use four of them) and the players' seat colours.
var BY_COLOUR = { red: "triangle", yellow: "star", blue: "square", green: "circle", purple: "diamond" };
var BY_OWNER = ["circle", "triangle", "square", "diamond", "star"];

var SVG = "http://www.w3.org/2000/svg";

function svg(name, className) {
  var node = document.createElementNS(SVG, "svg");
  node.setAttribute("viewBox", "-1.15 -1.15 2.3 2.3");
  node.setAttribute("aria-hidden", "true");
  node.setAttribute("class", className || "");
  node.dataset.symbol = name;
  var outline = OUTLINES[name];
  var shape;
  if (outline === null) {
    shape = document.createElementNS(SVG, "circle");
    shape.setAttribute("r", "0.9");
  } else {
    shape = document.createElementNS(SVG, "polygon");
    shape.setAttribute("points", outline.map(function (p) { return p.join(","); }).join(" "));
  }
  shape.setAttribute("fill", "currentColor");
  node.appendChild(shape);
  return node;
}

// Upright whatever the piece's angle: a turned square would read as a diamond.
function draw(ctx, name, x, y, radius, fill, edge) {
  var outline = OUTLINES[name];
  ctx.beginPath();
  if (outline === null) ctx.arc(x, y, radius * 0.9, 0, Math.PI * 2);
  else outline.forEach(function (p, i) {
    if (i === 0) ctx.moveTo(x + p[0] * radius, y + p[1] * radius);
    else ctx.lineTo(x + p[0] * radius, y + p[1] * radius);
  });
  ctx.closePath();
  ctx.fillStyle = fill;
  ctx.strokeStyle = edge;
  ctx.lineWidth = Math.max(1.5, radius * 0.25);
  ctx.lineJoin = "round";
  ctx.stroke();
  ctx.fill();
}

// Called through this one object, so a browser test can count the shapes drawn by wrapping draw.
export const symbols = {
  forColour: function (colour) { return BY_COLOUR[colour] || null; },
  forOwner: function (owner) { return BY_OWNER[owner % BY_OWNER.length]; },
  svg: svg,
  draw: draw,
};
