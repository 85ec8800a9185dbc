// What keeps the work: records (SGF with every variation and every node's
// properties, through stargtp-sgf-tree and stargtp-sgf-write), loaded from a
// file, a drop on the page or pasted text, saved as a download; and the
// page's own copy in localStorage (the tree, the node shown, the settings),
// from which a reload rebuilds the session. docs/gui.md describes them.

import { GtpError } from "./bridge.js";
import { S, $, otherColour } from "./state.js";
import { tree, session } from "./tree.js";

const STORE = "stargtp.page"; // the localStorage key
const VERSION = 1;

/** A record on one line, as stargtp-loadsgf-text and stargtp-sgf-tree take it.
 * GTP reads `#` as the start of a comment: a `#` in the record's text travels
 * as a full-width number sign. */
export function recordLine(text) {
  return text.replace(/[\r\n\t]+/g, " ").replace(/#/g, "\uff03").trim();
}

/** JSON on one line for stargtp-sgf-write. GTP reads `#` as a comment and
 * runs of spaces as one: both (only ever inside strings) as their escapes. */
export function jsonLine(value) {
  return JSON.stringify(value).replace(/#/g, "\\u0023").replace(/ /g, "\\u0020");
}

async function ask(line) {
  const [answer] = await session().gtp([line], true);
  if (!answer.ok) throw new GtpError(line.split(" ")[0], answer.text);
  return answer.text;
}

/** The JSON of stargtp-sgf-write for `children` under the session's header
 * (game, size, komi, options and the root properties printsgf writes); a
 * loaded record keeps its own komi and options (the header read with it).
 * printsgf writes the line the session is on: its result (RE) is the
 * record's only when that line is the main line, the one a reader follows. */
async function recordJSON(children) {
  const header = JSON.parse(await ask(`stargtp-sgf-tree ${recordLine(await ask("printsgf"))}`));
  const own = tree.header || {};
  const properties = { ...(header.properties || {}) };
  if (!tree.isMainLine(tree.current)) delete properties.RE;
  // A resignation or a flag is no position's result: the record says it (RE
  // in the game's SGF colours, which the engine knows) when it ended the main line.
  const ended = S.ended && ["resign", "time"].includes(S.ended.reason) && tree.isMainLine(S.ended.node) ? S.ended : null;
  return {
    // the options: a loaded record's own, else the ones the tree is played with (a swap in a
    // variation needs the rule on though the line shown has none)
    game: header.game, size: header.size, komi: own.komi ?? header.komi,
    options: own.options || { ...(header.options || {}), ...(tree.rules || {}) },
    properties: { ...properties, ...tree.root.props },
    setup: tree.root.setup, children,
    ...(ended && { result: { winner: otherColour(ended.loser), by: ended.reason } }),
  };
}

/** The whole tree as an SGF record (stargtp-sgf-write). */
export async function recordText() {
  const text = await ask(`stargtp-sgf-write ${jsonLine(await recordJSON(tree.childrenJSON(tree.root)))}`);
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** Save: download the record with its variations; the tree counts as saved. */
export async function saveRecord() {
  await session().busy(async () => {
    const text = await recordText();
    $("record-text").value = text;
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-go-sgf" }));
    const stamp = new Date().toISOString().slice(0, 16).replace(/[T:]/g, "-");
    link.download = `stargtp-${S.game.name}-${S.size}-${stamp}.sgf`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    tree.dirty = false;
    tree.changed(false);
    const nodes = countNodes(tree.root) - 1;
    session().status(`Saved the record (${nodes} move${nodes === 1 ? "" : "s"}` +
      `${nodes > S.position.moves.length ? ", with variations" : ""}).`);
  });
}

function countNodes(node) {
  return node.children.reduce((sum, child) => sum + countNodes(child), 1);
}

/** Load a record's text: its tree (stargtp-sgf-tree), then the session
 * follows its main line (stargtp-loadsgf-text) and shows its end. */
export async function loadRecord(text) {
  S.epoch++;
  S.chosen = [];
  const line = recordLine(text);
  if (!line) return session().message("The record is empty.");
  await session().busy(async () => {
    const [shape] = await session().gtp([`stargtp-sgf-tree ${line}`], true);
    if (!shape.ok) {
      session().message(`Cannot load the record: ${shape.text}`);
      return;
    }
    const [answer] = await session().gtp([`stargtp-loadsgf-text ${line}`], true);
    if (!answer.ok) {
      session().message(`Cannot load the record: ${answer.text}`);
      return;
    }
    S.setup = null; // a record replaces a set-up being edited too
    tree.load(JSON.parse(shape.text));
    await session().fresh(); // play: no result, the clocks afresh
    await session().refresh();
    session().clearMessage();
    const variations = countNodes(tree.root) - 1 - (tree.mainLine().length - 1);
    session().status(`Loaded a record: ${S.position ? S.position.moves.length : 0} moves` +
      (variations ? ` (and ${variations} in variations)` : "") + ". The engine waits: press Engine move to let it play.");
  });
}

/** A file or text dropped anywhere on the page is loaded as a record. */
export function listenForDrops(target) {
  // Text dropped into a text box goes there, as usual; anywhere else it is a record.
  const hasRecord = (event) => !(event.target instanceof Element && event.target.closest("input, textarea")) &&
    [...(event.dataTransfer?.types || [])].some((t) => t === "Files" || t === "text/plain");
  target.addEventListener("dragover", (event) => {
    if (!hasRecord(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    document.body.dataset.dropping = "1";
  });
  target.addEventListener("dragleave", (event) => {
    if (event.relatedTarget === null) delete document.body.dataset.dropping;
  });
  target.addEventListener("drop", async (event) => {
    if (!hasRecord(event)) return;
    event.preventDefault();
    delete document.body.dataset.dropping;
    const file = event.dataTransfer.files[0];
    const text = file ? await file.text() : event.dataTransfer.getData("text/plain");
    if (text) await loadRecord(text);
  });
}

// -- the page's own copy: localStorage -------------------------------------------------

/** Keep the tree, the node shown and the settings (called after every change). */
export function store(settings) {
  if (!tree.game) return;
  try {
    localStorage.setItem(STORE, JSON.stringify({ version: VERSION, tree: tree.snapshot(), settings }));
  } catch (error) {
    // Storage full or refused (a private window): the page works on without it.
  }
}

/** What was kept, or null. */
export function stored() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "null");
    return data && data.version === VERSION && data.tree && data.tree.game ? data : null;
  } catch (error) {
    return null;
  }
}

export function forget() {
  try {
    localStorage.removeItem(STORE);
  } catch (error) {
    // nothing kept, nothing to forget
  }
}

/** `stargtp-setup TO_MOVE KIND POINT...` for a set-up as the tree keeps it. */
export function setupCommand(setup) {
  const words = [setup.to_move];
  for (const [kind, points] of Object.entries(setup)) {
    if (kind !== "to_move" && Array.isArray(points) && points.length) words.push(kind, ...points);
  }
  return `stargtp-setup ${words.join(" ")}`;
}

/** Bring the session to the tree's current node from scratch: a loaded
 * record's line through stargtp-sgf-write and stargtp-loadsgf-text (its komi
 * and options kept), else the game, the size, the options the tree is played
 * with (stargtp-rules), the set-up and the moves. */
export async function rebuildSession() {
  const line = tree.line(tree.current).slice(1);
  let chain = [];
  for (let k = line.length - 1; k >= 0; k--) {
    chain = [{ colour: line[k].colour, move: line[k].move, properties: {}, children: chain }];
  }
  if (tree.header) {
    const json = { game: tree.game, size: tree.size, komi: tree.header.komi, options: tree.header.options || {},
      properties: {}, setup: tree.root.setup, children: chain };
    const text = await ask(`stargtp-sgf-write ${jsonLine(json)}`);
    await ask(`stargtp-loadsgf-text ${recordLine(text)}`);
    return;
  }
  const lines = [`game ${tree.game}`, `boardsize ${tree.size}`];
  // The options the tree was played with, on the empty board (before a set-up, which fixes them).
  for (const [name, on] of Object.entries(tree.rules || {})) lines.push(`stargtp-rules ${name} ${on ? "on" : "off"}`);
  if (tree.root.setup) lines.push(setupCommand(tree.root.setup));
  lines.push(...line.map((n) => `play ${n.colour} ${n.move}`));
  await session().gtp(lines);
}
