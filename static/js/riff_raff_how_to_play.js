// Riff Raff's how-to-play: pick a number card, put a piece of your cargo on that number of
// the ship, and tap a piece that falls off to catch it. The ship's ten numbered places stand
// where the game has them: 1-4 on the deck, 5-10 at the ends of the three yardarms.
import { symbols } from "./colour_symbols.js";
import { tabletHowToPlay, teacherHowToPlay } from "./lib/how_to_play.js";

// The card the demo picks, and where cargo sits on each numbered place of the drawing
// (0 0 400 300): the deck's top for 1-4, the yardarms' ends for 5-10.
export const PICKED = 7;
export const PLACES = {
  1: [95, 205], 2: [165, 205], 3: [235, 205], 4: [305, 205],
  5: [100, 150], 6: [300, 150], 7: [126, 105], 8: [274, 105], 9: [158, 60], 10: [242, 60],
};
// Where the piece in hand waits before it is placed (as on the tablet: top left).
export const DOCK = [36, 36];
// The piece that slides off the end of yardarm 6, and where it has fallen when it is caught.
export const SLIDES_OFF = [330, 137];
export const CAUGHT_AT = [352, 232];

export function steps() {
  return [
    { key: "pick", ms: 3500 },
    { key: "place", ms: 4500 },
    { key: "catch", ms: 4500 },
    { key: "win", ms: 3000 },
  ];
}

var SVG = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  var node = document.createElementNS(SVG, name);
  Object.keys(attrs).forEach(function (key) { node.setAttribute(key, String(attrs[key])); });
  if (parent) parent.appendChild(node);
  return node;
}

// A piece of cargo in the player's colour with their shape, centred on (x, y).
function cargo(parent, className, x, y) {
  var group = el("g", { class: className }, parent);
  el("rect", { x: x - 13, y: y - 13, width: 26, height: 26, rx: 4, class: "htp-rr-box" }, group);
  var shape = symbols.svg(symbols.forOwner(0), "htp-rr-mark");
  shape.setAttribute("x", String(x - 8));
  shape.setAttribute("y", String(y - 8));
  shape.setAttribute("width", "16");
  shape.setAttribute("height", "16");
  group.appendChild(shape);
  return group;
}

function hand(parent, className, x, y) {
  el("use", { href: "#htp-hand", class: "htp-hand-svg " + className, x: x, y: y, width: 56, height: 56 }, parent);
}

function ship(svg) {
  el("path", { class: "htp-rr-sea", d: "M0 262 Q25 250 50 262 T100 262 T150 262 T200 262 T250 262 T300 262 T350 262 T400 262 V300 H0 Z" }, svg);
  var rocking = el("g", { class: "htp-rr-ship" }, svg);
  el("path", { class: "htp-rr-hull", d: "M55 205 H345 L310 258 H90 Z" }, rocking);
  el("rect", { class: "htp-rr-wood", x: 196, y: 38, width: 8, height: 168 }, rocking);
  [[88, 312, 150], [114, 286, 105], [146, 254, 60]].forEach(function (arm) {
    el("rect", { class: "htp-rr-wood", x: arm[0], y: arm[2], width: arm[1] - arm[0], height: 6, rx: 3 }, rocking);
  });
  Object.keys(PLACES).forEach(function (n) {
    var at = PLACES[n];
    var place = el("g", { class: "htp-rr-place" + (Number(n) === PICKED ? " is-picked" : "") }, rocking);
    // The number under its place (on the hull for the deck's), clear of the cargo on it.
    var below = Number(n) <= 4 ? 24 : 15;
    el("circle", { cx: at[0], cy: at[1] + below, r: 10 }, place);
    el("text", { x: at[0], y: at[1] + below + 4, "text-anchor": "middle" }, place).textContent = n;
  });
  cargo(rocking, "htp-rr-sitting", PLACES[6][0] - 6, PLACES[6][1] - 13);
  return rocking;
}

function draw(stage) {
  var scene = document.createElement("div");
  scene.className = "htp-rr";
  stage.appendChild(scene);
  var svg = el("svg", { class: "htp-rr-scene", viewBox: "0 0 400 300" }, scene);
  var rocking = ship(svg);
  var target = PLACES[PICKED];
  // The piece in hand: drawn at its place, moved to the dock until it is placed.
  var placed = cargo(rocking, "htp-rr-placed", target[0], target[1] - 13);
  placed.style.setProperty("--from-x", DOCK[0] - target[0] + "px");
  placed.style.setProperty("--from-y", DOCK[1] - (target[1] - 13) + "px");
  hand(placed, "htp-hand-drag", target[0] - 24, target[1] - 14);
  // A piece that slides off the yardarm and falls toward the sea, and the tap that catches it.
  var falling = cargo(rocking, "htp-rr-falling", SLIDES_OFF[0], SLIDES_OFF[1]);
  falling.style.setProperty("--fall-x", CAUGHT_AT[0] - SLIDES_OFF[0] + "px");
  falling.style.setProperty("--fall-y", CAUGHT_AT[1] - SLIDES_OFF[1] + "px");
  hand(falling, "htp-hand-catch", SLIDES_OFF[0] - 28, SLIDES_OFF[1] - 2);
  var caught = el("use", { href: "#htp-star", class: "htp-rr-caught", x: CAUGHT_AT[0] + 4, y: CAUGHT_AT[1] - 60, width: 42, height: 42 }, svg);
  caught.setAttribute("aria-hidden", "true");
  // Your supply, empty: every piece is on the ship.
  var supply = el("g", { class: "htp-rr-supply" }, svg);
  [0, 1, 2].forEach(function (i) {
    el("rect", { x: DOCK[0] - 24 + i * 34, y: DOCK[1] - 13, width: 26, height: 26, rx: 4 }, supply);
  });
  el("use", { href: "#htp-star", x: DOCK[0] + 84, y: DOCK[1] - 24, width: 48, height: 48 }, supply);
  var cards = document.createElement("div");
  cards.className = "htp-rr-cards";
  for (var n = 1; n <= 10; n += 1) {
    var card = document.createElement("span");
    card.className = "btn rr-card htp-rr-card" + (n === PICKED ? " is-picked" : "");
    card.textContent = String(n);
    if (n === PICKED) {
      var pointer = el("svg", { class: "htp-hand", viewBox: "0 0 100 100" }, card);
      el("use", { href: "#htp-hand" }, pointer);
    }
    cards.appendChild(card);
  }
  scene.appendChild(cards);
}

export const riffRaffDemo = {
  game: "riff_raff",
  steps: steps,
  context: function () { return {}; },
  draw: draw,
};

// The one call a Riff Raff tablet makes, with every view.
export const showHowToPlay = tabletHowToPlay(riffRaffDemo);

// On the console and the projector: "Show how to play" (null on a tablet).
export const teacherDemo = teacherHowToPlay(riffRaffDemo);
