// Palm Strike's how-to-play: the big card, the card of yours it matches at the table's level
// (the same two colours lit on both), the hand slapping the big card (not your own card), and
// a big card with no match where the hand stays still. Team mode: the match is in the middle.
import { tabletHowToPlay, teacherHowToPlay } from "./lib/how_to_play.js";

// One example per level: a big card, your card that matches it at that level (and, where the
// rule allows, not at a harder one, so the picture shows this level's rule), a card of yours
// that matches nothing (two in team mode), and a second big card that matches none of them.
export const EXAMPLES = {
  beginner: {
    big: { type: "public", bg: "yellow", word: "red", ink: "blue" },
    match: { type: "player", bg: "yellow", pic: "red", motif: "cat" },
  },
  intermediate: {
    big: { type: "public", bg: "yellow", word: "red", ink: "blue" },
    match: { type: "player", bg: "red", pic: "blue", motif: "cat" },
  },
  advanced: {
    big: { type: "public", bg: "yellow", word: "red", ink: "blue" },
    match: { type: "player", bg: "blue", pic: "red", motif: "cat" },
  },
};
export const OTHER = { type: "player", bg: "green", pic: "purple", motif: "fish" };
export const OTHER_TOO = { type: "player", bg: "purple", pic: "green", motif: "bird" };
export const QUIET = { type: "public", bg: "purple", word: "yellow", ink: "blue" };

// The two colours the match shares, as the child finds them: the card's background, then its
// picture.
export function sharedColours(level) {
  var card = (EXAMPLES[level] || EXAMPLES.beginner).match;
  return [card.bg, card.pic];
}

export function steps(context) {
  var level = EXAMPLES[context.level] ? context.level : "beginner";
  return [
    { key: "look", ms: 3000 },
    { key: "match", words: context.team ? "match_team" : "match_" + level, ms: 5000 },
    { key: "slap", words: context.team ? "slap_team" : "slap", ms: 4000 },
    { key: "quiet", ms: 3500 },
  ];
}

// The table's level and mode (its view on a tablet, the settings on the teacher's pages), and
// the language of the colour words, the session's.
function context(page, view) {
  return {
    level: (view && view.level) || page.level || "beginner",
    team: view ? !!view.team_mode : !!page.team,
    language: page.language,
  };
}

var SVG = "http://www.w3.org/2000/svg";

function div(className, parent) {
  var node = document.createElement("div");
  node.className = className;
  if (parent) parent.appendChild(node);
  return node;
}

// The game's own card drawings (.pcard, the motif symbols of play/_card_motifs.html).
function playerCard(card, extra) {
  var box = div("pcard pcard-player " + extra);
  box.style.setProperty("--card-bg", "var(--c-" + card.bg + ")");
  var svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  var use = document.createElementNS(SVG, "use");
  use.setAttribute("href", "#m-" + card.motif);
  use.setAttribute("fill", "var(--c-" + card.pic + ")");
  svg.appendChild(use);
  box.appendChild(svg);
  return box;
}

function publicCard(card, extra, words, language) {
  var box = div("pcard pcard-public " + extra);
  box.style.setProperty("--card-bg", "var(--c-" + card.bg + ")");
  var word = document.createElement("span");
  word.className = "pcard-word";
  word.textContent = words["card_" + card.word];
  word.lang = language;
  word.style.color = "var(--c-" + card.ink + ")";
  box.appendChild(word);
  return box;
}

function hand(parent) {
  var svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "htp-hand");
  svg.setAttribute("viewBox", "0 0 100 100");
  var use = document.createElementNS(SVG, "use");
  use.setAttribute("href", "#htp-hand");
  svg.appendChild(use);
  parent.appendChild(svg);
  return svg;
}

function draw(stage, ctx, words) {
  var example = EXAMPLES[ctx.level] || EXAMPLES.beginner;
  var scene = div("htp-ps" + (ctx.team ? " is-team" : ""), stage);
  var top = div("htp-ps-top", scene);
  var slot = div("htp-ps-big", top);
  slot.appendChild(publicCard(example.big, "htp-card-big htp-big-match", words, ctx.language));
  slot.appendChild(publicCard(QUIET, "htp-card-big htp-big-quiet", words, ctx.language));
  hand(slot);
  var no = div("htp-no", slot);
  no.setAttribute("aria-hidden", "true");
  var pair = div("htp-pair", scene);
  sharedColours(ctx.level).forEach(function (colour) {
    var dot = div("htp-dot", pair);
    dot.style.setProperty("--dot", "var(--c-" + colour + ")");
  });
  var mine = div("htp-ps-mine", scene);
  var cards = ctx.team ? [OTHER, example.match, OTHER_TOO] : [example.match, OTHER];
  cards.forEach(function (card) {
    var node = playerCard(card, "htp-card-mine");
    if (card === example.match) node.classList.add("htp-the-match");
    mine.appendChild(node);
  });
  if (ctx.team) hand(mine).classList.add("htp-hand-centre");
}

export const palmStrikeDemo = { game: "palm_strike", steps: steps, context: context, draw: draw };

// The one call a Palm Strike tablet makes, with every view.
export const showHowToPlay = tabletHowToPlay(palmStrikeDemo);

// On the console and the projector: "Show how to play" (null on a tablet).
export const teacherDemo = teacherHowToPlay(palmStrikeDemo);
