// Set-up mode: place and remove pieces freely, choose the side to move, then
// play on from there. The kinds of piece are the ones `stargtp-games`' entry
// lists under `setup` (kind and label each); each change is sent at once as
// `stargtp-setup TO_MOVE KIND POINT...`, so the board is always the server's
// own picture of the set-up and a position the game forbids is refused with
// the server's reason. "Play from here" starts a new game tree whose root is
// the set-up; Cancel brings back the game as it was.

import { S, $, rulesNow, title } from "./state.js";
import { rebuildSession, setupCommand } from "./records.js";
import { tree, session } from "./tree.js";

const REMOVE = "remove"; // the eraser: not a kind of piece

/** Whether the current game has a set-up (a non-empty `setup` list). */
export function available() {
  return Boolean(S.game && Array.isArray(S.game.setup) && S.game.setup.length);
}

export function active() {
  return S.setup !== null && S.setup !== undefined;
}

/** The pieces of a position, by point: each kind from stargtp-position's
 * board (a kind's points under its name, or its plural: "arrow", "arrows"). */
function piecesOf(position) {
  const pieces = new Map();
  for (const { kind } of S.game.setup) {
    for (const point of position.board[kind] || position.board[`${kind}s`] || []) pieces.set(point, kind);
  }
  return pieces;
}

/** The set-up being edited, as stargtp-sgf-tree writes one: {to_move, KIND: [points]...}. */
export function currentSetup() {
  const setup = { to_move: S.setup.toMove };
  for (const { kind } of S.game.setup) setup[kind] = [];
  for (const [point, kind] of S.setup.pieces) setup[kind].push(point);
  return setup;
}

/** Enter set-up mode from the position shown. */
export function start() {
  if (!available() || !S.position || S.busy || S.thinking || active()) return;
  S.setup = { pieces: piecesOf(S.position), kind: S.game.setup[0].kind, toMove: S.position.to_move, changed: false };
  S.chosen = [];
  session().status("Set-up mode: click the board to place or remove pieces, then Play from here.");
  session().render();
}

/** Send the set-up to the session; on refusal, say why and keep the last one. */
async function apply(before) {
  let ok = false;
  await session().busy(async () => {
    const line = setupCommand(currentSetup());
    const [answer] = await session().gtp([line], true);
    if (!answer.ok) {
      S.setup.pieces = before.pieces;
      S.setup.toMove = before.toMove;
      session().message(`The set-up is refused: ${answer.text}`);
      return;
    }
    S.setup.changed = true;
    session().clearMessage();
    await session().refresh();
    ok = true;
  });
  render();
  return ok;
}

function saved() {
  return { pieces: new Map(S.setup.pieces), toMove: S.setup.toMove };
}

/** A click on a point in set-up mode: place the chosen kind (again: take it off), or remove. */
export async function onPoint(name) {
  if (!active() || S.busy) return;
  const before = saved();
  const kind = S.setup.kind;
  if (kind === REMOVE || S.setup.pieces.get(name) === kind) S.setup.pieces.delete(name);
  else S.setup.pieces.set(name, kind);
  await apply(before);
}

async function setToMove(colour) {
  if (!active()) return;
  const before = saved();
  S.setup.toMove = colour;
  await apply(before);
}

async function clear() {
  if (!active()) return;
  const before = saved();
  S.setup.pieces = new Map();
  await apply(before);
}

/** Play from here: the set-up becomes the root of a new game tree; the engine may play on. */
async function playFromHere() {
  if (!active() || S.busy) return;
  const setup = currentSetup();
  let ok = false;
  S.epoch++;
  await session().busy(async () => {
    const [answer] = await session().gtp([setupCommand(setup)], true);
    if (!answer.ok) {
      session().message(`The set-up is refused: ${answer.text}`);
      return;
    }
    S.setup = null;
    tree.reset(S.game.name, S.size, setup);
    tree.rules = rulesNow(); // the options it is played with (a set-up's cannot change)
    await session().fresh(); // play: no result, the clocks afresh
    await session().refresh();
    tree.changed(); // a set-up is work to keep
    ok = true;
  });
  render();
  if (ok) {
    session().status(`Playing from the set-up: ${title(setup.to_move)} to move.`);
    session().maybeEngineMove();
  }
}

/** Cancel: leave set-up mode and bring back the game as it was. */
async function cancel() {
  if (!active() || S.busy) return;
  const changed = S.setup.changed;
  S.setup = null;
  if (changed) {
    await session().busy(async () => {
      await rebuildSession();
      await session().refresh();
    });
  }
  session().render();
  render();
}

// -- the Set-up card -----------------------------------------------------------------

function kindButton(kind, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "kind";
  button.dataset.kind = kind;
  button.textContent = label;
  return button;
}

/** The card: the start button, or in set-up mode one button per kind (and
 * Remove), the side to move, Clear, Play from here and Cancel. */
export function render() {
  const card = $("setup-card");
  const on = active();
  document.body.dataset.setup = on ? "1" : "0";
  card.hidden = !available();
  $("setup-tools").hidden = !on;
  $("setup-start").hidden = on;
  $("setup-start").disabled = !S.position || S.busy > 0 || S.thinking;
  $("setup-banner").hidden = !on;
  if (!available()) return;
  const kinds = $("setup-kinds");
  const wanted = [...S.game.setup.map((k) => [k.kind, k.label]), [REMOVE, "Remove"]];
  if ([...kinds.children].map((b) => b.dataset.kind).join(" ") !== wanted.map(([k]) => k).join(" ")) {
    kinds.replaceChildren(...wanted.map(([kind, label]) => kindButton(kind, label)));
  }
  if (!on) return;
  for (const button of kinds.children) {
    const pressed = button.dataset.kind === S.setup.kind;
    button.setAttribute("aria-pressed", pressed ? "true" : "false");
    button.classList.toggle("pressed", pressed);
  }
  $("setup-to-move").value = S.setup.toMove;
  const label = (S.game.setup.find((k) => k.kind === S.setup.kind) || {}).label || S.setup.kind;
  $("setup-banner").textContent = S.setup.kind === REMOVE ? "Set-up mode: a click on the board removes the piece there."
    : `Set-up mode: a click on the board places (or takes off) a piece: ${label}.`;
  for (const id of ["setup-clear", "setup-play", "setup-cancel"]) $(id).disabled = S.busy > 0;
}

export function bind() {
  $("setup-start").addEventListener("click", start);
  $("setup-kinds").addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("button.kind") : null;
    if (!button || !active()) return;
    S.setup.kind = button.dataset.kind;
    render();
  });
  $("setup-to-move").addEventListener("change", () => setToMove($("setup-to-move").value));
  $("setup-clear").addEventListener("click", clear);
  $("setup-play").addEventListener("click", playFromHere);
  $("setup-cancel").addEventListener("click", cancel);
}
