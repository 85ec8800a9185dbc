// The review graph under the board: an SVG the page draws from numbers,
// black's win rate at every reviewed position of the main line (the start,
// then after each move), black's score lead on a second scale where the game
// gives one, the mistakes marked, the position shown as a vertical line.
// Clicking it picks the nearest position. Nothing here knows a game.

import { el, fmt } from "./svg.js";

const W = 600; // the view box: the picture scales to the width of the board
const H = 150;
const PAD = { left: 34, right: 34, top: 10, bottom: 18 };

/** The x of position `index` of `count` (0: the start). */
function xOf(index, count) {
  return PAD.left + (count > 1 ? index / (count - 1) : 0.5) * (W - PAD.left - PAD.right);
}

/** The y of a share from 0 to 1 (1 at the top). */
function yOf(share) {
  return PAD.top + (1 - share) * (H - PAD.top - PAD.bottom);
}

/** The largest lead shown: the scale runs from -it to +it, a round number. */
function leadScale(points) {
  const most = Math.max(1, ...points.filter((p) => p.lead !== null).map((p) => Math.abs(p.lead)));
  const steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000];
  return steps.find((s) => s >= most) || Math.ceil(most);
}

/**
 * Draw the graph into `holder`.
 * `count`: the positions of the main line (the start and one per move);
 * `points`: [{index, black (0..1), lead (black's, or null)}], the reviewed ones;
 * `mistakes`: the indexes of the moves marked as mistakes;
 * `current`: the index of the position shown (null: off the main line);
 * `onPick(index)`: a click on the graph, with the nearest reviewed position.
 */
export function draw(holder, { count, points, mistakes, current, onPick }) {
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img",
    "aria-label": "Black's win rate over the game" });
  svg.dataset.points = String(points.length);
  svg.dataset.positions = String(count);
  const area = { x: PAD.left, y: PAD.top, w: W - PAD.left - PAD.right, h: H - PAD.top - PAD.bottom };
  el("rect", { class: "frame", x: area.x, y: area.y, width: area.w, height: area.h }, svg);
  for (const share of [0.25, 0.5, 0.75]) {
    el("line", { class: share === 0.5 ? "middle" : "grid", x1: area.x, x2: area.x + area.w, y1: yOf(share),
      y2: yOf(share) }, svg);
  }
  el("text", { class: "scale", x: area.x - 4, y: yOf(1) + 8, "text-anchor": "end" }, svg, "100%");
  el("text", { class: "scale", x: area.x - 4, y: yOf(0.5) + 3, "text-anchor": "end" }, svg, "50%");
  el("text", { class: "scale", x: area.x - 4, y: yOf(0), "text-anchor": "end" }, svg, "0%");
  const leads = points.filter((p) => p.lead !== null);
  if (leads.length) {
    // The lead's own scale on the right: 0 at the middle line.
    const scale = leadScale(points);
    svg.dataset.leadScale = String(scale);
    const yLead = (lead) => yOf(0.5 + 0.5 * Math.max(-1, Math.min(1, lead / scale)));
    el("text", { class: "scale lead", x: area.x + area.w + 4, y: yOf(1) + 8 }, svg, `+${scale}`);
    el("text", { class: "scale lead", x: area.x + area.w + 4, y: yOf(0) }, svg, `-${scale}`);
    const path = leads.map((p, k) => `${k ? "L" : "M"}${fmt(xOf(p.index, count))} ${fmt(yLead(p.lead))}`).join(" ");
    el("path", { class: "lead-line", d: path }, svg);
    for (const p of leads) {
      el("circle", { class: "lead-point", cx: xOf(p.index, count), cy: yLead(p.lead), r: 1.6,
        "data-index": String(p.index), "data-lead": String(p.lead) }, svg);
    }
  }
  if (points.length) {
    // Black's share filled from the bottom, the line on top of it.
    const line = points.map((p, k) => `${k ? "L" : "M"}${fmt(xOf(p.index, count))} ${fmt(yOf(p.black))}`).join(" ");
    const first = xOf(points[0].index, count);
    const last = xOf(points[points.length - 1].index, count);
    el("path", { class: "black-area", d: `${line} L${fmt(last)} ${fmt(yOf(0))} L${fmt(first)} ${fmt(yOf(0))} Z` }, svg);
    el("path", { class: "black-line", d: line }, svg);
  }
  if (current !== null && current < count) {
    el("line", { class: "current", x1: xOf(current, count), x2: xOf(current, count), y1: area.y,
      y2: area.y + area.h, "data-index": String(current) }, svg);
  }
  const marked = new Set(mistakes);
  for (const p of points) {
    const mistake = marked.has(p.index);
    el("circle", { class: mistake ? "point mistake" : "point", cx: xOf(p.index, count), cy: yOf(p.black),
      r: mistake ? 4 : 2.2, "data-index": String(p.index), "data-black": String(p.black) }, svg);
  }
  el("text", { class: "scale", x: area.x, y: H - 4 }, svg, "start");
  el("text", { class: "scale", x: area.x + area.w, y: H - 4, "text-anchor": "end" }, svg,
    `move ${Math.max(0, count - 1)}`);
  svg.addEventListener("click", (event) => {
    if (!points.length) return;
    const box = svg.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * W;
    let best = points[0];
    for (const p of points) if (Math.abs(xOf(p.index, count) - x) < Math.abs(xOf(best.index, count) - x)) best = p;
    onPick(best.index);
  });
  holder.replaceChildren(svg);
  return svg;
}
