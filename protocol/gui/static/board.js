// The board: the server's own picture (stargtp-svg), with overlays drawn over
// it. Every point of the picture carries data-point (its name in move text),
// so clicks and overlays need nothing from the game: where a point is comes
// from the picture itself, how big a mark is from stargtp-geometry's unit.
// The board draws no board of its own and knows no rules.

import { S, $, canPlayNow, choices, moveParts, otherColour } from "./state.js";
import { el, fmt } from "./svg.js";

const BEST_SHOWN = { one: 5, many: 3 }; // moves in parts are long lines: fewer

let svg = null; // the picture's <svg>
let layers = null; // the overlay's groups
let points = new Map(); // point name -> its element (the first that names it)
let tops = new Map(); // point name -> the topmost element that names it (a piece on it, if any)
let shown = ""; // the picture's text, as the server sent it

const board = () => $("board");

/** The distance between neighbouring points, what marks are sized by. */
function unit() {
  if (S.geometry && S.geometry.unit) return S.geometry.unit;
  const first = points.values().next().value;
  return first ? Math.max(1, Math.min(first.getBBox().width, first.getBBox().height) * 1.2) : 36;
}

/** The centre of a point in the picture's coordinates, or null. */
function centre(name) {
  const node = points.get(name);
  if (!node) return null;
  const box = node.getBBox();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Whether the picture has a point of that name. */
export function isPoint(name) {
  return points.has(name);
}

/** Put the server's picture on the board (when it changed). */
export function showPicture(text) {
  const root = board();
  if (text === shown && svg) return;
  shown = text;
  const holder = document.createElement("div");
  holder.innerHTML = text;
  const picture = holder.querySelector("svg");
  picture.removeAttribute("width");
  picture.removeAttribute("height");
  picture.setAttribute("preserveAspectRatio", "xMidYMid meet");
  picture.setAttribute("role", "img");
  picture.setAttribute("aria-label", `${S.game.title} board, size ${S.size}`);
  picture.classList.add("picture");
  root.querySelector(".board-message").hidden = true;
  const old = root.querySelector("svg");
  if (old) old.replaceWith(picture);
  else root.appendChild(picture);
  svg = picture;
  points = new Map();
  tops = new Map();
  for (const node of svg.querySelectorAll("[data-point]")) {
    const name = node.dataset.point;
    if (!points.has(name)) points.set(name, node);
    tops.set(name, node);
  }
  const overlay = el("g", { class: "overlay" }, svg);
  arrowHeads(overlay);
  layers = {};
  for (const name of ["territory", "ownership", "chosen", "targets", "analysis", "review", "hint", "ghost"]) {
    layers[name] = el("g", { class: `${name}-layer` }, overlay);
  }
}

/** Arrowheads for the lines of the analysis and of a hint (the picture's own
 * last move has none): markers styled by the page (head-analysis, head-hint). */
function arrowHeads(parent) {
  const defs = el("defs", {}, parent);
  for (const kind of ["analysis", "hint"]) {
    const marker = el("marker", { id: `head-${kind}`, class: `head-${kind}`, viewBox: "0 0 10 10", refX: 7, refY: 5,
      markerWidth: 3.2, markerHeight: 3.2, orient: "auto" }, defs);
    el("path", { d: "M0,0L10,5L0,10z" }, marker);
  }
}

/** No picture to show: say why, and draw nothing (never another game's board). */
export function showMessage(text) {
  const root = board();
  const old = root.querySelector("svg");
  if (old) old.remove();
  svg = null;
  layers = null;
  points = new Map();
  tops = new Map();
  shown = "";
  const box = root.querySelector(".board-message");
  box.textContent = text;
  box.hidden = false;
}

/** Everything over the picture: legal choices, the move being built, the score's territory. */
export function render() {
  const root = board();
  const p = S.position;
  root.dataset.game = S.game ? S.game.name : "";
  root.dataset.size = String(S.size ?? "");
  if (!p || !svg) {
    for (const key of ["moves", "toMove", "over", "part"]) delete root.dataset[key];
    return;
  }
  root.dataset.moves = String(p.moves.length);
  root.dataset.toMove = p.to_move;
  root.dataset.over = p.over ? "1" : "0";
  root.classList.toggle("no-score", !$("score-overlay").checked);
  for (const name of ["territory", "chosen", "targets"]) layers[name].replaceChildren();
  for (const node of svg.querySelectorAll(".legal, .origin")) node.classList.remove("legal", "origin");

  // The score's territory, once the game can be scored (stargtp-position's territory).
  if ($("score-overlay").checked && p.score && p.territory) {
    for (const colour of ["black", "white"]) {
      for (const name of p.territory[colour] || []) square(layers.territory, `territory ${colour}`, name, 0.2);
    }
  }

  const playing = canPlayNow();
  root.dataset.part = playing ? String(S.chosen.length) : "none";
  root.dataset.building = S.chosen.length ? "1" : "0";
  if (playing) {
    const many = S.game.parts > 1;
    const last = S.chosen.length === S.game.parts - 1;
    for (const name of choices()) {
      const node = points.get(name);
      if (!node) continue; // a move that is no point, such as pass
      node.classList.add("legal");
      // Moves in parts mark each step's choices, as the server lists them.
      if (many) target(name, S.chosen.length, last);
    }
    drawChosen();
  }
  drawHint();
  drawGhost();
}

/** play: the engine's hint (S.hint, for this position), a ring at its last part and arrows through its parts. */
function drawHint() {
  layers.hint.replaceChildren();
  const root = board();
  const hint = S.hint;
  root.dataset.hint = hint ? hint.move : "";
  if (!hint) return;
  const at = moveParts(hint.move).map(centre);
  if (!at.length || at.some((c) => !c)) return; // pass, resign: said in words
  const u = unit();
  const group = el("g", { class: "hint", "data-move": hint.move }, layers.hint);
  for (let i = 1; i < at.length; i++) {
    el("line", { class: "hint-path", x1: at[i - 1].x, y1: at[i - 1].y, x2: at[i].x, y2: at[i].y,
      "marker-end": "url(#head-hint)" }, group);
  }
  const end = at.at(-1);
  el("circle", { class: "hint-ring", cx: end.x, cy: end.y, r: 0.5 * u }, group);
}

function square(parent, kind, name, half) {
  const c = centre(name);
  if (!c) return null;
  const u = unit();
  return el("rect", { class: kind, "data-point": name, x: c.x - half * u, y: c.y - half * u,
    width: 2 * half * u, height: 2 * half * u }, parent);
}

function target(name, part, last) {
  const c = centre(name);
  if (!c) return;
  const u = unit();
  const kind = part === 0 ? "first" : last ? "last" : "middle";
  const attributes = { class: `target ${kind}`, "data-point": name, "data-part": part };
  if (part === 0) {
    el("rect", { ...attributes, x: c.x - 0.45 * u, y: c.y - 0.45 * u, width: 0.9 * u, height: 0.9 * u,
      rx: 0.1 * u }, layers.targets);
  } else {
    el("circle", { ...attributes, cx: c.x, cy: c.y, r: (last ? 0.22 : 0.17) * u }, layers.targets);
  }
}

/** The parts chosen so far: each point highlighted in its own shape, a line
 * through them, and a piece standing on the first drawn on the second. */
function drawChosen() {
  if (!S.chosen.length) return;
  for (const name of S.chosen) {
    const node = points.get(name);
    if (!node) continue;
    const copy = node.cloneNode(false);
    copy.removeAttribute("data-point");
    copy.setAttribute("class", "chosen");
    copy.dataset.chosen = name;
    layers.chosen.appendChild(copy);
  }
  const [from, to] = S.chosen;
  if (to) {
    const a = centre(from), b = centre(to);
    el("line", { class: "path", x1: a.x, y1: a.y, x2: b.x, y2: b.y }, layers.chosen);
    const piece = tops.get(from);
    if (piece && piece !== points.get(from)) {
      piece.classList.add("origin");
      const moving = piece.cloneNode(false);
      moving.classList.remove("origin");
      moving.classList.add("moving");
      moving.dataset.moving = to;
      moving.removeAttribute("data-point");
      moving.setAttribute("transform", `translate(${fmt(b.x - a.x)} ${fmt(b.y - a.y)})`);
      layers.chosen.appendChild(moving);
    }
  }
}

/** The point under the mouse, if it is a choice that finishes a move: a
 * faint copy of it in the mover's colour. */
function drawGhost() {
  if (!layers) return;
  layers.ghost.replaceChildren();
  if (!canPlayNow() || !S.hover || S.game.parts !== 1 || !choices().includes(S.hover)) return;
  const node = points.get(S.hover);
  if (!node) return;
  const copy = node.cloneNode(false);
  copy.removeAttribute("data-point");
  copy.setAttribute("class", `ghost ${S.position.to_move}`);
  layers.ghost.appendChild(copy);
}

// -- analysis marks ------------------------------------------------------------------

/** The analysis over the board: the best moves (most visited first) ringed at
 * their last part, with lines through their parts and the visits on a
 * badge; each point's expected owner (the `ownership` values at the points
 * stargtp-geometry names, or the expected territory of stargtp-position). */
export function drawAnalysis(report, showOwnership) {
  if (!layers) return;
  layers.analysis.replaceChildren();
  layers.ownership.replaceChildren();
  const root = board();
  delete root.dataset.territoryBlack;
  delete root.dataset.territoryWhite;
  root.dataset.analysis = report ? "1" : "0";
  if (!report) return;
  const u = unit();
  if (showOwnership) drawOwnership(report);
  const shown = S.game.parts > 1 ? BEST_SHOWN.many : BEST_SHOWN.one;
  const best = report.moves.slice(0, shown).filter((m) => m.move && points.has(moveParts(m.move).at(-1)));
  // The best last, so that it lies on top.
  best.map((m, k) => [m, k]).reverse().forEach(([m, k]) => {
    const parts = moveParts(m.move);
    const at = parts.map(centre);
    if (at.some((c) => !c)) return;
    const group = el("g", { class: `best${k === 0 ? " top" : ""}`, "data-move": m.move, "data-order": k,
      "data-visits": m.visits }, layers.analysis);
    for (let i = 1; i < at.length; i++) {
      el("line", { class: i === 1 ? "path" : "path flight", x1: at[i - 1].x, y1: at[i - 1].y, x2: at[i].x, y2: at[i].y,
        "marker-end": "url(#head-analysis)" }, group);
    }
    const end = at.at(-1);
    el("circle", { class: "ring", cx: end.x, cy: end.y, r: 0.45 * u }, group);
    badge(group, end.x, end.y - 0.62 * u, m.visits);
  });
}

// -- the review's best line (review.js) ------------------------------------------------

const REVIEW_SHOWN = 8; // the moves of the best line drawn

/** The engine's best line at the position shown, from its review: each move
 * a numbered disc in its mover's colour at its last part (1: the best move,
 * ringed), with lines through its parts; nothing for an empty line. */
export function drawReviewLine(line, firstColour) {
  if (!layers) return;
  layers.review.replaceChildren();
  const root = board();
  root.dataset.reviewLine = line.slice(0, REVIEW_SHOWN).join(" ");
  const u = unit();
  let colour = firstColour;
  line.slice(0, REVIEW_SHOWN).forEach((move, k) => {
    const at = moveParts(move).map(centre);
    if (at.length && at.every(Boolean)) {
      const group = el("g", { class: `review-move ${colour}${k === 0 ? " top" : ""}`, "data-move": move,
        "data-order": k }, layers.review);
      for (let i = 1; i < at.length; i++) {
        el("line", { class: i === 1 ? "path" : "path flight", x1: at[i - 1].x, y1: at[i - 1].y, x2: at[i].x,
          y2: at[i].y }, group);
      }
      const end = at.at(-1);
      el("circle", { class: "disc", cx: end.x, cy: end.y, r: 0.3 * u }, group);
      el("text", { x: end.x, y: end.y + 0.11 * u, "font-size": 0.3 * u, "text-anchor": "middle" }, group,
        String(k + 1));
    }
    colour = otherColour(colour);
  });
}

function drawOwnership(report) {
  const u = unit();
  const me = report.colour;
  const names = (S.geometry && S.geometry.ownership) || [];
  if (report.ownership && names.length) {
    // One value per point, +1 always the analysed colour's, -1 always the other's.
    names.forEach((name, k) => {
      const value = report.ownership[k];
      const c = centre(name);
      if (value === undefined || !c) return;
      const owner = value >= 0 ? me : otherColour(me);
      el("circle", { class: `ownership ${owner}`, "data-point": name, "data-ownership": fmt(value),
        cx: c.x, cy: c.y, r: 0.47 * u, opacity: 0.1 + 0.8 * Math.min(1, Math.abs(value)) }, layers.ownership);
    });
  } else if (report.territory && S.position.territory) {
    // The expected territory the analysis counts, square by square.
    const counts = {};
    for (const colour of ["black", "white"]) {
      const names = S.position.territory[colour] || [];
      counts[colour] = names.length;
      for (const name of names) square(layers.ownership, `ownership ${colour}`, name, 0.15);
    }
    board().dataset.territoryBlack = String(counts.black);
    board().dataset.territoryWhite = String(counts.white);
  }
}

function badge(parent, x, y, visits) {
  const u = unit();
  const text = compact(visits);
  const w = Math.max(0.62, 0.19 * text.length + 0.2) * u;
  const h = 0.36 * u;
  const group = el("g", { class: "badge" }, parent);
  el("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 0.12 * u }, group);
  el("text", { x, y: y + 0.1 * u, "font-size": 0.27 * u, "text-anchor": "middle" }, group, text);
}

export function compact(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

// -- input ---------------------------------------------------------------------------

/** Clicks and the mouse: `onPoint(name)` for a click on a point. */
export function listen(onPoint) {
  const root = board();
  const pointOf = (event) => {
    const node = event.target instanceof Element ? event.target.closest("[data-point]") : null;
    return node && svg && svg.contains(node) ? node.dataset.point : null;
  };
  root.addEventListener("click", (event) => {
    const name = pointOf(event);
    if (name) onPoint(name);
  });
  root.addEventListener("mousemove", (event) => {
    const name = canPlayNow() ? pointOf(event) : null;
    if (name !== S.hover) {
      S.hover = name;
      drawGhost();
    }
  });
  root.addEventListener("mouseleave", () => {
    S.hover = null;
    drawGhost();
  });
}

/** Highlight (or not) the picture's elements of one score item (`data-score-item`). */
export function highlightScoreItem(item, on) {
  if (!svg) return;
  for (const node of svg.querySelectorAll(`[data-score-item="${CSS.escape(item)}"]`)) node.classList.toggle("highlight", on);
}
