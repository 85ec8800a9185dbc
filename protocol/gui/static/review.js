// The review of a whole game: the engine evaluates every position of the
// main line (stargtp-evaluate, one search each for the chosen playouts or
// seconds), the numbers are stored in the nodes' SGF properties (so saving
// the record keeps them), the graph under the board draws them, the moves
// whose mover lost more than the threshold are listed as mistakes, and the
// position shown gets the engine's best move and its line on the board.
// docs/gui.md ("Reviewing a game") and docs/protocol.md (stargtp-evaluate,
// "Review properties in SGF records") describe it. Nothing here knows a game.

import { drawReviewLine } from "./board.js";
import * as clock from "./clock.js";
import * as graph from "./graph.js";
import { S, $, title } from "./state.js";
import { goTo, stepsBetween, tree } from "./tree.js";

/** The SGF properties of a review, on the node of the position evaluated. */
export const PROPS = {
  winrate: "SBKV", // black's win rate in percent, two decimals (as Sabaki writes it)
  lead: "SGLD", // black's score lead, where the game gives one
  best: "SGBM", // the best move for the side to move there
  line: "SGPV", // its line, one value per move
  playouts: "SGPO", // the playouts searched
};

const R = { running: false, stopping: false, done: 0, total: 0 };
let means = null; // {bridge, busy, refresh}: app.js's

/** app.js gives the means to talk to the session and to redraw. */
export function connect(given) {
  means = given;
}

/** The review's settings, for the page's copy in localStorage. */
export function settings() {
  return { limit: $("review-limit").value, threshold: $("review-threshold").value, line: $("review-line").checked };
}

export function applySettings(kept) {
  if (!kept) return;
  if ([...$("review-limit").options].some((o) => o.value === kept.limit)) $("review-limit").value = kept.limit;
  if (Number.isFinite(Number(kept.threshold)) && String(kept.threshold).trim() !== "") {
    $("review-threshold").value = String(kept.threshold);
  }
  $("review-line").checked = kept.line !== false;
}

// -- the numbers ------------------------------------------------------------------------

/** A node's stored review: {black (0..1), lead, best, line, playouts}, or null. */
export function reviewOf(node) {
  const props = node.props || {};
  const rate = props[PROPS.winrate] ? Number(props[PROPS.winrate][0]) : NaN;
  if (!Number.isFinite(rate)) return null;
  const lead = props[PROPS.lead] ? Number(props[PROPS.lead][0]) : NaN;
  return {
    black: Math.max(0, Math.min(100, rate)) / 100,
    lead: Number.isFinite(lead) ? lead : null,
    best: props[PROPS.best] ? props[PROPS.best][0] : null,
    line: props[PROPS.line] ? [...props[PROPS.line]] : [],
    playouts: props[PROPS.playouts] ? Number(props[PROPS.playouts][0]) : null,
  };
}

/** Write stargtp-evaluate's answer into the node's properties (replacing an older review). */
function store(node, answer) {
  for (const key of Object.values(PROPS)) delete node.props[key];
  if (answer.black_winrate === null) return; // a player that reports no win rate
  node.props[PROPS.winrate] = [(answer.black_winrate * 100).toFixed(2)];
  if (answer.black_lead !== null) node.props[PROPS.lead] = [String(Math.round(answer.black_lead * 100) / 100)];
  if (answer.move) {
    node.props[PROPS.best] = [answer.move];
    node.props[PROPS.line] = answer.pv.length ? [...answer.pv] : [answer.move];
  }
  node.props[PROPS.playouts] = [String(answer.playouts)];
}

/** The threshold: a drop of the mover's win rate by more than this many points is a mistake. */
function threshold() {
  const value = Number($("review-threshold").value);
  return Number.isFinite(value) && value >= 0 ? value : 15;
}

/** The reviewed positions of the main line: [{index, node, black, lead}]. */
export function points(line = tree.mainLine()) {
  const out = [];
  line.forEach((node, index) => {
    const review = reviewOf(node);
    if (review) out.push({ index, node, black: review.black, lead: review.lead });
  });
  return out;
}

/** The moves of the main line after which their mover's win rate dropped by
 * more than the threshold: [{index, node, drop (points), before, after}]. */
export function mistakes(line = tree.mainLine()) {
  const limit = threshold();
  const out = [];
  for (let index = 1; index < line.length; index++) {
    const node = line[index];
    const before = reviewOf(line[index - 1]);
    const after = reviewOf(node);
    if (!before || !after) continue;
    const mine = (r) => (node.colour === "black" ? r.black : 1 - r.black);
    const drop = (mine(before) - mine(after)) * 100;
    if (drop > limit) out.push({ index, node, drop, before: mine(before), after: mine(after) });
  }
  return out;
}

// -- running it -------------------------------------------------------------------------

/** Review every position of the main line; the session comes back to the node shown. */
export async function start() {
  if (!means || R.running || !S.position || S.busy || S.thinking) return;
  const limit = $("review-limit").value; // "playouts N" or "seconds S"
  const line = tree.mainLine();
  const home = tree.current;
  const epoch = S.epoch; // a new game or a loaded record (which may come meanwhile) ends the review
  Object.assign(R, { running: true, stopping: false, done: 0, total: line.length });
  S.reviewing = true; // the clocks stop while the engine reviews (and go on afterwards)
  clock.update();
  render();
  const { bridge } = means;
  await means.busy(async () => {
    let at = home; // where the session is
    try {
      const back = stepsBetween(at, tree.root);
      if (back.length) await bridge.gtp(back);
      at = tree.root;
      for (let i = 0; i < line.length && !R.stopping && S.epoch === epoch; i++) {
        const node = line[i];
        if (i) {
          const [played] = await bridge.gtp([`play ${node.colour} ${node.move}`], true);
          if (!played.ok) throw new Error(`play ${node.colour} ${node.move}: ${played.text}`);
        }
        at = node;
        if (R.stopping || S.epoch !== epoch) break; // Stop came while the move was played: no search
        // A search, as the bridge knows one: Stop's interrupt is aimed at it (bridge.search).
        const answer = await bridge.search(`stargtp-evaluate ${limit}`);
        if (R.stopping || S.epoch !== epoch) break; // stopped mid-search: that answer is not a full one
        store(node, JSON.parse(answer));
        R.done = i + 1;
        render();
      }
    } finally {
      R.running = false;
      S.reviewing = false;
      if (S.epoch === epoch) {
        const steps = stepsBetween(at, home);
        if (steps.length) await bridge.gtp(steps);
        tree.changed();
        await means.refresh();
      }
    }
  });
  R.running = false;
  S.reviewing = false;
  render();
  clock.update();
}

/** Stop the review: the running search answers now (# interrupt), and is not kept.
 * An interrupt that reaches the session before the search has started is a
 * mere comment there: the bridge sends it once the search's request has
 * gone, and again every second until the search answers (bridge.interrupt). */
export function stop() {
  if (!R.running || R.stopping) return;
  R.stopping = true;
  means.bridge.interrupt();
  render();
}

// -- drawing ------------------------------------------------------------------------------

/** Go to the position at `index` of the main line (a click on the graph). */
function pick(index) {
  const node = tree.mainLine()[index];
  if (node) goTo(node);
}

/** The review card, the graph and the marks on the board. */
export function render() {
  const box = $("review");
  if (!box || !S.game) return;
  const line = tree.mainLine();
  const found = points(line);
  const wrong = mistakes(line);
  const index = line.indexOf(tree.current);
  box.dataset.running = R.running ? "1" : "0";
  box.dataset.reviewed = String(found.length);
  box.dataset.mistakes = String(wrong.length);
  $("review-start").disabled = R.running || !S.position || S.busy > 0 || S.thinking || Boolean(S.setup);
  $("review-stop").hidden = !R.running;
  $("review-stop").disabled = R.stopping;
  $("review-limit").disabled = R.running;
  const progress = $("review-progress");
  progress.hidden = !R.running;
  progress.max = Math.max(1, R.total);
  progress.value = R.done;
  const status = $("review-status");
  if (R.running) {
    status.textContent = R.stopping ? "Stopping\u2026" : `Reviewing: ${R.done} of ${R.total} positions`;
  } else if (found.length) {
    status.textContent = `${found.length} of ${line.length} positions reviewed; ` +
      `${wrong.length} ${wrong.length === 1 ? "mistake" : "mistakes"} (a drop of more than ${threshold()} points).`;
  } else {
    status.textContent = "Not reviewed yet.";
  }
  const holder = $("review-graph");
  holder.hidden = !found.length;
  if (found.length) {
    graph.draw(holder, { count: line.length, points: found, mistakes: wrong.map((m) => m.index),
      current: index >= 0 ? index : null, onPick: pick });
  } else {
    holder.replaceChildren();
  }
  renderHere();
  renderMistakes(wrong);
  showOnBoard();
}

/** The review of the position shown, in words. */
function renderHere() {
  const here = $("review-here");
  const review = tree.current ? reviewOf(tree.current) : null;
  here.hidden = !review;
  if (!review) {
    here.textContent = "";
    return;
  }
  const black = (review.black * 100).toFixed(1);
  let text = `This position: Black ${black}%, White ${(100 - Number(black)).toFixed(1)}%`;
  if (review.lead !== null) text += `; Black ${review.lead >= 0 ? "leads" : "trails"} by ${Math.abs(review.lead)}`;
  if (review.best) text += `; the engine's move: ${review.best} (line: ${review.line.join(" ")})`;
  if (review.playouts) text += `; ${review.playouts.toLocaleString("en")} playouts`;
  else if (!review.best) text += " (the game is over)";
  here.textContent = `${text}.`;
}

function renderMistakes(wrong) {
  const list = $("mistake-list");
  list.replaceChildren();
  for (const m of wrong) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "mistake";
    button.dataset.index = String(m.index);
    button.dataset.move = m.node.move;
    const parent = reviewOf(m.node.parent);
    const better = parent && parent.best ? `; the engine's move: ${parent.best}` : "";
    button.innerHTML = '<span class="number"></span> <span class="dot"></span> <span class="text"></span>';
    button.querySelector(".number").textContent = `${m.index}.`;
    button.querySelector(".dot").classList.add(m.node.colour);
    button.querySelector(".text").textContent = `${title(m.node.colour)} ${m.node.move}: ` +
      `${(m.before * 100).toFixed(1)}% \u2192 ${(m.after * 100).toFixed(1)}% (\u2212${m.drop.toFixed(1)})${better}`;
    // The position before the mistake, where the engine's move is shown.
    button.addEventListener("click", () => goTo(m.node.parent));
    if (m.node.parent === tree.current) button.classList.add("current");
    item.appendChild(button);
    list.appendChild(item);
  }
}

/** The engine's best move and its line at the position shown, from its review. */
function showOnBoard() {
  const review = tree.current ? reviewOf(tree.current) : null;
  const wanted = review && review.line.length && $("review-line").checked && !S.analysis.wanted && !S.thinking &&
    S.position && !S.position.over;
  drawReviewLine(wanted ? review.line : [], S.position ? S.position.to_move : null);
}
