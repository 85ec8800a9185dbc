// The page's state: what the server said (the games, the position, the legal
// moves; the picture itself lives on the board) and what the person is
// doing (the move being built, the line of moves stepped over). Nothing here
// knows any game: a game is the entry `stargtp-games` gives for it.

export const S = {
  session: null,
  games: [], // stargtp-games: every game's entry
  game: null, // the current game's entry
  size: null,
  position: null, // stargtp-position (null: the game has no picture)
  geometry: null, // stargtp-geometry of the current game and size
  legal: { black: [], white: [] }, // all_legal b / all_legal w
  future: [], // the moves "forward" steps through from the node shown, [colour, move] (tree.js)
  setup: null, // set-up mode: the set-up being edited (setup.js), else null
  rules: [], // stargtp-rules: the current game's options as the session has them, [{name, on}]
  options: {}, // the options the person chose for the next new game, by name (true: on)
  engine: "white", // the side the engine plays: black, white, none or both
  defaults: { playouts: "none", seconds: "none" },
  busy: 0, // commands in flight that change what is shown
  reviewing: false, // a whole-game review runs (review.js): the clocks stop
  thinking: false,
  epoch: 0, // bumped by new game / load: stale engine replies do not chain
  analysis: { wanted: false, running: false, report: null },
  chosen: [], // the parts of a move being built, and
  targets: [], // the choices for its next part (all_legal COLOUR PARTIAL)
  hover: null, // the point under the mouse
  // play (clock.js, Hint, Resign): how the game ended outside the rules, and the hint shown
  ended: null, // {reason: "resign" | "time", loser: colour, text}: the game is over
  hint: null, // {key: positionKey, move}: the engine's best move, shown, not played
};

export const $ = (id) => document.getElementById(id);

export function otherColour(colour) {
  return colour === "black" ? "white" : "black";
}

export function title(colour) {
  return colour ? colour[0].toUpperCase() + colour.slice(1) : "";
}

/** play: whether the node shown is the one where the game ended (resigned or
 * flagged). While S.ended is set, the node shown is on the line to it (app.js
 * clears S.ended when another line is shown), and that node ends its line. */
export function endedHere() {
  return Boolean(S.ended) && S.future.length === 0;
}

export function engineSide(colour) {
  return S.engine === "both" || S.engine === colour;
}

/** `stargtp-rules`' answer (`NAME on|off` lines) as [{name, on}]. */
export function parseRules(text) {
  return text.split("\n").map((line) => line.trim().split(/\s+/)).filter((w) => w.length === 2)
    .map(([name, value]) => ({ name, on: value === "on" }));
}

/** The session's options now, by name: {NAME: true|false}. */
export function rulesNow() {
  return Object.fromEntries(S.rules.map((r) => [r.name, r.on]));
}

/** The mover's legal moves that are neither a point of the board nor the
 * game's pass (such as a swap): `isPoint(name)` says what the board has. */
export function otherMoves(isPoint) {
  const p = S.position;
  if (!p || !S.game) return [];
  return (S.legal[p.to_move] || []).filter((move) => move !== S.game.pass && !isPoint(moveParts(move)[0]));
}

/** Whether a person may play on the board now. */
export function canPlayNow() {
  const p = S.position;
  // While reviewing an earlier position, either side may be played by hand.
  return Boolean(p) && !p.over && S.busy === 0 && !S.thinking && !S.setup &&
    !(S.future.length === 0 && engineSide(p.to_move)) && !endedHere();
}

/** What an analysis report describes: the game, the size and every move. */
export function positionKey(p) {
  return `${p.game} ${p.size} ${p.moves.map((m) => m.join(" ")).join(",")}`;
}

// -- moves in parts (docs/protocol.md, all_legal COLOUR PARTIAL) -------------------

const SEPARATOR = /(?<=[0-9A-Za-z])[^0-9A-Za-z]+(?=[0-9A-Za-z])/;

/** A move text's parts: "d1-d7/g7" -> ["d1", "d7", "g7"]; "*40" -> ["*40"]. */
export function moveParts(text) {
  return text.split(SEPARATOR);
}

/** The text of a move, or of its first parts, from its parts, in the game's own spelling. */
export function joinParts(parts) {
  const separators = S.game.separators;
  return parts.map((part, i) => (i ? separators[i - 1] + part : part)).join("");
}

/** The first parts of the mover's legal moves, in the server's order. */
export function firstParts() {
  const p = S.position;
  if (!p) return [];
  return [...new Set((S.legal[p.to_move] || []).map((move) => moveParts(move)[0]))];
}

/** The choices for the next part of the move being built: the first parts of
 * the mover's legal moves, then what all_legal COLOUR PARTIAL answered. */
export function choices() {
  return S.chosen.length ? S.targets : firstParts();
}
