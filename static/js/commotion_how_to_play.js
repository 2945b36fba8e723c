// Commotion's how-to-play: a START card opens a pile in the middle, any 2 goes on it, then
// the next number in the same colour; another colour does not fit; with no cards left in your
// pile you tap OUT. The cards are the game's own (.cm-card, with their colour's shape).
import { symbols } from "./colour_symbols.js";
import { tabletHowToPlay, teacherHowToPlay } from "./lib/how_to_play.js";

// The cards of the demo, in the order they reach the pile (null: it never does), and the
// step that moves each one.
export const CARDS = [
  { kind: "start", step: "start" },
  { kind: "number", colour: "red", number: 2, step: "two" },
  { kind: "number", colour: "red", number: 3, step: "next" },
  { kind: "number", colour: "blue", number: 4, step: null },
];

export function steps() {
  return [
    { key: "start", ms: 3000 },
    { key: "two", ms: 3000 },
    { key: "next", ms: 3500 },
    { key: "wrong", ms: 3000 },
    { key: "out", ms: 3500 },
  ];
}

// Which cards are on the pile once ``key`` shows: those whose step came at or before it.
export function onPile(key) {
  var order = steps().map(function (step) { return step.key; });
  var now = order.indexOf(key);
  return CARDS.map(function (card) {
    return card.step !== null && order.indexOf(card.step) <= now;
  });
}

function span(className, parent) {
  var node = document.createElement("span");
  node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}

function card(c, words) {
  var node = span("cm-card cm-size-pile cm-" + c.kind + (c.colour ? " cm-" + c.colour : ""));
  node.dataset.owner = "0";
  span("cm-face", node).textContent = c.kind === "number" ? c.number : words.start_card;
  var shape = c.colour && symbols.forColour(c.colour);
  if (shape) node.appendChild(symbols.svg(shape, "cm-symbol"));
  span("cm-owner", node);
  return node;
}

function draw(stage, ctx, words) {
  var scene = span("htp-cm", stage);
  var pile = span("htp-cm-pile", scene);
  var lower = span("htp-cm-lower", scene);
  var row = span("htp-cm-row", lower);
  CARDS.forEach(function (c, index) {
    var inPile = card(c, words);
    inPile.classList.add("htp-cm-moving");
    inPile.dataset.card = String(index);
    pile.appendChild(inPile);
    var inRow = card(c, words);
    inRow.dataset.card = String(index);
    row.appendChild(inRow);
  });
  var side = span("htp-cm-side", lower);
  var refill = span("htp-cm-refill", side);
  refill.textContent = "0";
  var out = span("btn btn-big btn-accent htp-cm-out", side);
  out.textContent = words.out_button;
  var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "htp-hand");
  svg.setAttribute("viewBox", "0 0 100 100");
  var use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", "#htp-hand");
  svg.appendChild(use);
  out.appendChild(svg);
}

function step(stage, current) {
  var played = onPile(current.key);
  stage.querySelectorAll("[data-card]").forEach(function (node) {
    var index = Number(node.dataset.card);
    var inPile = node.parentNode.classList.contains("htp-cm-pile");
    node.classList.toggle(inPile ? "is-in" : "is-gone", played[index]);
    // The card that does not fit tries the pile and comes back.
    node.classList.toggle("is-trying", current.key === "wrong" && CARDS[index].step === null);
  });
}

export const commotionDemo = {
  game: "commotion",
  steps: steps,
  context: function () { return {}; },
  draw: draw,
  step: step,
};

// The one call a Commotion tablet makes, with every view.
export const showHowToPlay = tabletHowToPlay(commotionDemo);

// On the console and the projector: "Show how to play" (null on a tablet).
export const teacherDemo = teacherHowToPlay(commotionDemo);
