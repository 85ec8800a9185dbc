// stargtp's browser page: plain JavaScript modules, no framework, no build step.
//
// The page knows the games only through the protocol, spoken to the HTTP
// bridge of `stargtp gui`: stargtp-games lists the games for the menus,
// stargtp-svg is the board, stargtp-position the state and the score,
// all_legal (whole and by parts) the legal clicks, genmove and
// genmove_analyze the engine's moves, kata-analyze the live analysis,
// stargtp-sgf-tree and stargtp-sgf-write the records (records.js), undo and
// play the steps through the game tree (tree.js), stargtp-setup the set-up
// mode (setup.js). This module holds the actions and wires the controls;
// docs/gui.md describes them.

import * as analysis from "./analysis.js";
import * as board from "./board.js";
import { Bridge, GtpError, splitWords } from "./bridge.js";
import * as clock from "./clock.js";
import * as zoom from "./zoom.js";
import * as panels from "./panels.js";
import * as records from "./records.js";
import * as review from "./review.js"; // hook: the whole-game review
import * as setup from "./setup.js";
import { connect, deleteCurrent, goTo, promoteCurrent, tree } from "./tree.js";
import { S, $, canPlayNow, choices, endedHere, engineSide, firstParts, joinParts, otherColour, parseRules, positionKey,
  rulesNow, title } from "./state.js";

const ANALYSIS_INTERVAL = 40; // centiseconds between analysis reports

const bridge = new Bridge();
bridge.onLine = analysis.onReport;
const geometries = new Map();

// -- drawing -----------------------------------------------------------------------

function render() {
  if (S.hint && (!S.position || S.hint.key !== positionKey(S.position))) S.hint = null; // play: a hint is of one position
  board.render();
  analysis.show();
  panels.renderPanel();
  setup.render();
  review.render(); // hook: the review card, its graph and the best line on the board
  clock.update(); // play: the clock of the side to move runs
  if (S.ended) document.body.dataset.ended = S.ended.reason;
  else delete document.body.dataset.ended;
}

/** Run an action with the page marked busy (board locked, data-idle 0); report errors. */
async function busy(action) {
  S.busy++;
  updateIdle();
  try {
    return await action();
  } catch (error) {
    panels.showMessage(error instanceof GtpError ? `${error.command}: ${error.message}` : String(error.message || error));
    return undefined;
  } finally {
    S.busy--;
    updateIdle();
    afterSettled();
  }
}

function updateIdle() {
  const idle = S.busy === 0 && !S.thinking;
  const changed = document.body.dataset.idle !== (idle ? "1" : "0");
  document.body.dataset.thinking = S.thinking ? "1" : "0";
  // What is playable depends on idleness: draw again before saying so.
  if (changed && idle) render();
  document.body.dataset.idle = idle ? "1" : "0";
  panels.updateControls();
}

/** Ask the server for everything shown, then draw it. */
async function refresh() {
  const [games, position, black, white, picture] = await bridge.gtp(
    ["stargtp-games", "stargtp-position", "all_legal b", "all_legal w", "stargtp-svg"], true);
  if (!games.ok) throw new GtpError("stargtp-games", games.text);
  const list = JSON.parse(games.text);
  S.games = list.games;
  const game = S.games.find((g) => g.name === list.game);
  const newBoard = !S.game || S.game.name !== game.name || S.size !== list.size;
  S.game = game;
  S.size = list.size;
  S.chosen = [];
  S.targets = [];
  partials.clear();
  S.legal = { black: black.ok ? splitWords(black.text) : [], white: white.ok ? splitWords(white.text) : [] };
  document.body.dataset.game = game.name;
  if (newBoard) await readRules();
  if (!position.ok || !picture.ok) {
    // A game without a picture: say so, and draw nothing (never another game's board).
    S.position = null;
    S.geometry = null;
    board.showMessage(`${game.title} has no picture, so this page cannot show its board ` +
      `(the server says: ${(picture.ok ? position : picture).text}). Choose another game.`);
    document.body.dataset.moves = "";
    panels.setStatus(`${game.title}, ${panels.sizeText(game, S.size)}: no picture`);
    render();
    return;
  }
  const key = `${game.name} ${S.size}`;
  if (!geometries.has(key)) {
    const [answer] = await bridge.gtp(["stargtp-geometry"], true);
    geometries.set(key, answer.ok ? JSON.parse(answer.text) : null);
  }
  S.geometry = geometries.get(key);
  S.position = JSON.parse(position.text);
  syncTree();
  if (newBoard) S.analysis.report = null;
  board.showPicture(picture.text);
  document.body.dataset.moves = String(S.position.moves.length);
  panels.setStatus(`${game.title}, ${panels.sizeText(game, S.size)}`);
  render();
}

/** The game tree follows the session: the moves it has played are a line of
 * the tree (new ones are added as a branch); the node at its end is shown.
 * Not in set-up mode, where the session holds the set-up being edited. */
function syncTree() {
  if (S.setup) return;
  if (tree.game !== S.game.name || tree.size !== S.size) {
    tree.reset(S.game.name, S.size);
    tree.rules = rulesNow();
  }
  tree.follow(S.position.moves); // S.future: the moves forward steps through (tree.onChange)
  // play: a line other than the one that ended (a move played or shown off it): the game goes on
  if (S.ended && !tree.contains(tree.current, S.ended.node)) S.ended = null;
}

/** What the page keeps besides the tree (records.store). */
function settings() {
  return { engine: S.engine, time: $("time-select").value, analysis: S.analysis.wanted,
    score: $("score-overlay").checked, ownership: $("ownership-toggle").checked,
    options: S.options, // the game options chosen for the next new game
    review: review.settings(), // hook: the review's settings
    clock: Object.fromEntries(CLOCK_INPUTS.map((id) => [id, $(id).value])) }; // play: the time control
}

const CLOCK_INPUTS = ["clock-system", "clock-main", "clock-extra", "clock-periods"]; // play

function applySettings(kept) {
  if (!kept) return;
  if (["white", "black", "none", "both"].includes(kept.engine)) S.engine = kept.engine;
  $("engine-select").value = S.engine;
  if ([...$("time-select").options].some((o) => o.value === kept.time)) $("time-select").value = kept.time;
  $("score-overlay").checked = kept.score !== false;
  $("ownership-toggle").checked = kept.ownership !== false;
  $("analysis-toggle").checked = Boolean(kept.analysis);
  S.analysis.wanted = Boolean(kept.analysis);
  document.body.dataset.analysis = S.analysis.wanted ? "1" : "0";
  if (kept.options && typeof kept.options === "object") {
    S.options = Object.fromEntries(Object.entries(kept.options).filter(([, on]) => typeof on === "boolean"));
  }
  review.applySettings(kept.review); // hook: the review's settings
  if (kept.clock) { // play: the time control (the clocks themselves start afresh: restore)
    for (const id of CLOCK_INPUTS) if (typeof kept.clock[id] === "string") $(id).value = kept.clock[id];
    if (![...$("clock-system").options].some((o) => o.value === $("clock-system").value)) $("clock-system").value = "none";
    clock.readControls();
  }
}

// -- engine moves --------------------------------------------------------------------

function maybeEngineMove() {
  const p = S.position;
  if (!p || p.over || S.ended || S.thinking || S.future.length || S.setup) return;
  if (engineSide(p.to_move)) engineMove();
}

async function engineMove() {
  const p = S.position;
  if (!p || p.over || S.thinking || S.setup || endedHere()) return;
  const colour = p.to_move;
  const epoch = S.epoch;
  S.thinking = true;
  S.chosen = [];
  S.analysis.report = null;
  $("thinking-text").textContent = `${title(colour)} (engine) is thinking\u2026`;
  updateIdle();
  render();
  let played = null;
  try {
    // play: the engine's clock, before each of its searches; both queued at
    // once, so that Move now pressed meanwhile finds the search (bridge.interrupt)
    const told = clock.limited() ? bridge.gtp([clock.timeLeftLine(colour)]) : Promise.resolve();
    if (S.analysis.wanted) {
      const [[answer]] = await Promise.all([bridge.stream(`genmove_analyze ${colour} ${ANALYSIS_INTERVAL}`,
        { colour, key: positionKey(p) }, true), told]);
      if (!answer.ok) throw new GtpError("genmove_analyze", answer.text);
      const plays = answer.text.split("\n").filter((line) => line.startsWith("play "));
      played = plays.length ? plays[plays.length - 1].slice(5).trim() : null;
    } else {
      played = (await Promise.all([bridge.search(`genmove ${colour}`), told]))[0].trim();
    }
  } catch (error) {
    panels.showMessage(`The engine failed: ${error.message}`);
  }
  // play: a move that came after the engine's flag fell is taken back
  const late = S.ended && S.ended.reason === "time" && epoch === S.epoch;
  if (late && played && played.toLowerCase() !== "resign") await bridge.gtp(["undo"], true);
  S.thinking = false;
  S.future = [];
  S.analysis.report = null;
  if (played && played.toLowerCase() === "resign" && !late && epoch === S.epoch) {
    S.ended = { reason: "resign", loser: colour, text: `${title(colour)} (engine) resigned: ${title(otherColour(colour))} wins.`,
      node: tree.current };
  }
  await busy(refresh);
  if (late) return;
  if (played) {
    panels.setStatus(`${title(colour)} (engine) ${played === S.game.pass ? "passed" : played.toLowerCase() === "resign"
      ? "resigned" : `played ${played}`}.`);
  }
  // A failed search does not try again by itself (Engine move does).
  if (played && epoch === S.epoch) maybeEngineMove();
}

// -- play: Hint, Resign, the flag ---------------------------------------------------

/** The engine's best move for the side to move, shown on the board and not
 * played (reg_genmove: a fresh search, the same answer for the same position
 * under a playout limit). Move now cuts it short, as it does a move. */
async function hint() {
  const p = S.position;
  if (!p || p.over || S.ended || S.thinking || S.busy) return;
  const colour = p.to_move;
  const key = positionKey(p);
  S.thinking = true;
  $("thinking-text").textContent = `Looking for a hint for ${title(colour)}\u2026`;
  updateIdle();
  let move = null;
  try {
    move = (await bridge.search(`reg_genmove ${colour}`)).trim();
  } catch (error) {
    panels.showMessage(`No hint: ${error.message}`);
  }
  S.thinking = false;
  if (move && S.position && positionKey(S.position) === key) {
    S.hint = { key, move };
    const pass = move === S.game.pass;
    const resign = move.toLowerCase() === "resign";
    panels.setStatus(`Hint for ${title(colour)}: ${pass ? "pass" : resign ? "resign (the engine sees no way to win)" : move}.`);
  }
  updateIdle();
  render();
}

/** The person to move gives up: the game is over. */
function resign() {
  const p = S.position;
  if (!p || p.over || S.ended || S.busy || S.thinking || engineSide(p.to_move)) return;
  const colour = p.to_move;
  end({ reason: "resign", loser: colour, text: `${title(colour)} resigned: ${title(otherColour(colour))} wins.` });
  panels.setStatus(`${title(colour)} resigned.`);
}

/** A clock ran out: that side loses, and a search under way is cut short (its move is taken back). */
function flagFell(colour) {
  if (S.ended) return; // the game ended first (a resignation)
  end({ reason: "time", loser: colour, text: `${title(colour)} ran out of time: ${title(otherColour(colour))} wins.` });
  panels.setStatus(`${title(colour)} ran out of time.`);
  if (S.thinking) bridge.interrupt();
}

/** The game ends at the node shown (S.ended.node: Undo, or showing another line, goes on). */
function end(ended) {
  S.ended = { ...ended, node: tree.current };
  S.chosen = [];
  S.targets = [];
  S.hint = null;
  render();
  stopAnalysis(); // a running analysis stops with the game
}

/** A new game, a loaded record, a set-up played from, a reload: no result, the
 * clocks afresh, the engine told the time control (records.js and setup.js
 * call it as session().fresh()). */
async function freshClocks() {
  S.ended = null;
  S.hint = null;
  clock.reset();
  await bridge.gtp(clock.settingsLines());
}

// -- a person's moves ------------------------------------------------------------------

async function playMove(move) {
  const colour = S.position.to_move;
  await busy(async () => {
    const [answer] = await bridge.gtp([`play ${colour} ${move}`], true);
    if (!answer.ok) {
      // The server says why, naming the move: "illegal move: S42 is occupied".
      panels.showMessage(answer.text.startsWith("illegal move") ? answer.text : `${move}: ${answer.text}`);
      return;
    }
    panels.clearMessage();
    // The tree follows: the move already there is stepped into, a new one starts a
    // branch (and another line than the one that ended clears the end: syncTree).
    await refresh();
  });
  maybeEngineMove();
}

/** The choices after the first parts of a move: all_legal COLOUR PARTIAL,
 * asked once per position and parts. */
const partials = new Map();

async function targetsAfter(parts) {
  const key = `${positionKey(S.position)} ${joinParts(parts)}`;
  if (!partials.has(key)) {
    partials.set(key, splitWords(await bridge.one(`all_legal ${S.position.to_move} ${joinParts(parts)}`)));
  }
  return partials.get(key);
}

/** Choose the first parts of a move: the board offers the choices after them. */
async function choose(parts) {
  await busy(async () => {
    const targets = await targetsAfter(parts);
    S.chosen = parts;
    S.targets = targets;
    board.render();
    panels.updateControls();
  });
}

function cancelMove() {
  S.chosen = [];
  S.targets = [];
  board.render();
  panels.updateControls();
}

/** A click on a point. A move of one part is played at once; a move in parts
 * is built part by part, each click offered only what all_legal allows:
 * clicking the last part chosen takes it back, a first part starts afresh,
 * anything else cancels. */
async function onPoint(name) {
  if (S.setup) return setup.onPoint(name);
  if (!canPlayNow()) return;
  const parts = S.game.parts;
  if (choices().includes(name)) {
    const chosen = [...S.chosen, name];
    if (chosen.length >= parts) {
      cancelMove();
      await playMove(joinParts(chosen));
    } else {
      await choose(chosen);
    }
    return;
  }
  if (!S.chosen.length) return;
  if (name === S.chosen.at(-1)) {
    if (S.chosen.length === 1) cancelMove();
    else await choose(S.chosen.slice(0, -1));
    return;
  }
  if (firstParts().includes(name)) await choose([name]);
  else cancelMove();
}

/** Typing: in a game whose moves have parts, the parts typed so far (all but
 * the last part of a move) drive the choices on the board, as clicks would. */
async function onMoveTyped() {
  if (!S.position || S.game.parts < 2 || !canPlayNow()) return;
  const typed = $("move-input").value.trim().split(/[^0-9A-Za-z*]+/).filter(Boolean).slice(0, S.game.parts - 1);
  const chosen = [];
  let targets = firstParts();
  for (const part of typed) {
    const match = targets.find((t) => t.toLowerCase() === part.toLowerCase());
    if (match === undefined) break;
    chosen.push(match);
    if (chosen.length < typed.length) targets = await targetsAfter(chosen);
  }
  if (chosen.join(" ") !== S.chosen.join(" ")) {
    if (chosen.length) await choose(chosen);
    else cancelMove();
  }
}

let typing = Promise.resolve();

async function onMoveSubmitted(event) {
  event.preventDefault();
  const input = $("move-input");
  const text = input.value.trim();
  if (!text || !S.position || S.position.over || S.thinking) return;
  await typing; // let the choices typed so far be shown first
  if (!canPlayNow()) return;
  input.value = "";
  cancelMove();
  await playMove(text);
  input.focus();
}

// -- the analysis --------------------------------------------------------------------

function startAnalysis() {
  const p = S.position;
  if (!p || p.over || endedHere() || S.analysis.running || S.thinking || S.busy) return;
  S.analysis.running = true;
  analysis.show();
  bridge.stream(`kata-analyze ${p.to_move} ${ANALYSIS_INTERVAL}`, { colour: p.to_move, key: positionKey(p) }, false)
    .then(({ request }) => request)
    .catch((error) => panels.showMessage(`analysis: ${error.message}`))
    .finally(() => {
      S.analysis.running = false;
      // Stopped by something other than the page (the session's other client): start again.
      setTimeout(afterSettled, 0);
    });
}

function stopAnalysis() {
  // Any line stops a running analysis; this one also refreshes the picture.
  if (S.analysis.running) busy(refresh);
}

function afterSettled() {
  if (S.busy || S.thinking) return;
  // play: not where the game ended by resignation or on time (no move is awaited there)
  if (S.analysis.wanted && !S.analysis.running && S.position && !S.position.over && !endedHere()) startAnalysis();
}

// -- the game controls -------------------------------------------------------------------

async function newGame(name, size) {
  S.epoch++;
  review.stop(); // hook: a new game ends a running review (its search answers now)
  if (S.thinking) bridge.interrupt();
  S.future = [];
  S.chosen = [];
  S.setup = null;
  panels.clearMessage();
  await busy(async () => {
    const lines = [];
    if (name !== S.game.name) lines.push(`game ${name}`);
    lines.push(`boardsize ${size}`);
    await bridge.gtp(lines);
    await applyOptions();
    tree.reset(name, size);
    tree.rules = rulesNow();
    await freshClocks();
    await refresh();
  });
  maybeEngineMove();
}

/** The current game's options as the session has them (stargtp-rules). */
async function readRules() {
  const [answer] = await bridge.gtp(["stargtp-rules"], true);
  S.rules = answer.ok ? parseRules(answer.text) : [];
}

/** A new game's empty board takes the options chosen for it (S.options;
 * an option never chosen keeps the session's value). */
async function applyOptions() {
  await readRules();
  const changes = S.rules.filter((rule) => rule.name in S.options && S.options[rule.name] !== rule.on);
  if (!changes.length) return;
  await bridge.gtp(changes.map((rule) => `stargtp-rules ${rule.name} ${S.options[rule.name] ? "on" : "off"}`));
  await readRules();
}

/** A game option's checkbox: it applies from the next new game. */
function onOption(event) {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.dataset.option) return;
  S.options[input.dataset.option] = input.checked;
  keep();
  panels.setStatus(`The ${input.dataset.option} rule will be ${input.checked ? "on" : "off"} from the next new game.`);
}

async function undo() {
  if (S.ended && S.ended.reason === "resign") { // play: Undo takes a resignation back first
    S.ended = null;
    panels.setStatus("The resignation is taken back.");
    render();
    return;
  }
  if (!S.position || !S.position.moves.length || S.ended) return;
  S.chosen = [];
  await busy(async () => {
    // Take back to the last position where a person was to move (one move
    // when people play both sides or the engine plays both).
    const moves = S.position.moves;
    let count = 1;
    if (S.engine !== "both" && S.engine !== "none") {
      while (count < moves.length && engineSide(moves[moves.length - count][0])) count++;
    }
    const from = tree.current;
    await bridge.gtp(new Array(count).fill("undo"));
    await refresh();
    // Taken back at the end of a line: those moves are forgotten (stepping back keeps them).
    tree.takeBack(from);
  });
}

/** Nav buttons and keys: the node each one shows. */
function stepTarget(step) {
  const node = tree.current;
  if (step === "first") return tree.root;
  if (step === "back") return node.parent;
  if (step === "forward") return tree.next(node);
  if (step === "up") return tree.sibling(node, -1); // the previous variation at this move
  if (step === "down") return tree.sibling(node, 1); // the next one
  return tree.end(node);
}

async function setTime(value) {
  await busy(async () => {
    if (value === "default") {
      await bridge.gtp([`stargtp-param playouts ${S.defaults.playouts}`, `stargtp-param seconds ${S.defaults.seconds}`]);
    } else {
      await bridge.gtp(["stargtp-param playouts none", `stargtp-param seconds ${value}`]);
    }
  });
}

function describeDefaultTime() {
  const { playouts, seconds } = S.defaults;
  const parts = [];
  if (seconds !== "none") parts.push(`${seconds} s`);
  if (playouts !== "none") parts.push(`${playouts} playouts`);
  $("time-select").options[0].textContent = parts.length ? `${parts.join(", ")} (server)` : "Server setting";
}

/** The engine takes the side a person does not play by default. */
function engineSideFor(game) {
  return otherColour(game.human);
}

async function setClock() {
  clock.readControls();
  keep();
  await busy(async () => {
    await bridge.gtp(clock.settingsLines());
  });
  render();
}

function bindControls() {
  board.listen(onPoint);
  zoom.listen();
  clock.whenFlagged(flagFell);
  for (const id of CLOCK_INPUTS) $(id).addEventListener("change", setClock);
  $("hint").addEventListener("click", hint);
  $("resign").addEventListener("click", resign);
  $("new-game").addEventListener("click", () => newGame($("game-select").value, Number($("size-select").value)));
  $("game-select").addEventListener("change", () => {
    const game = S.games.find((g) => g.name === $("game-select").value);
    S.engine = engineSideFor(game);
    $("engine-select").value = S.engine;
    newGame(game.name, game.default_size);
  });
  $("size-select").addEventListener("change", () => newGame(S.game.name, Number($("size-select").value)));
  $("engine-select").addEventListener("change", () => {
    S.engine = $("engine-select").value;
    keep();
    render();
    if (!S.busy) maybeEngineMove();
  });
  $("time-select").addEventListener("change", () => { keep(); setTime($("time-select").value); });
  // Engine move also plays from an earlier position (a new branch, or the move there); not where the game ended.
  $("engine-move").addEventListener("click", () => engineMove());
  $("move-now").addEventListener("click", () => bridge.interrupt());
  $("pass").addEventListener("click", () => { if (canPlayNow() && S.game.pass !== null) playMove(S.game.pass); });
  $("other-moves").addEventListener("click", (event) => { // moves that are no point, such as a swap
    const button = event.target instanceof Element ? event.target.closest("button[data-move]") : null;
    if (button && canPlayNow()) playMove(button.dataset.move);
  });
  $("game-options").addEventListener("change", onOption);
  $("undo").addEventListener("click", undo);
  $("cancel").addEventListener("click", cancelMove);
  $("move-form").addEventListener("submit", onMoveSubmitted);
  $("move-input").addEventListener("input", () => {
    typing = typing.then(onMoveTyped).catch((error) => panels.showMessage(String(error.message || error)));
  });
  $("score-overlay").addEventListener("change", () => { keep(); render(); });
  $("ownership-toggle").addEventListener("change", () => { keep(); analysis.show(); });
  $("analysis-toggle").addEventListener("change", () => {
    S.analysis.wanted = $("analysis-toggle").checked;
    keep();
    document.body.dataset.analysis = S.analysis.wanted ? "1" : "0";
    if (S.analysis.wanted) afterSettled();
    else stopAnalysis();
    analysis.show();
  });
  for (const step of ["first", "back", "forward", "last", "up", "down"]) {
    $(`nav-${step}`).addEventListener("click", () => goTo(stepTarget(step)));
  }
  $("move-list").addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("button.move") : null;
    if (button) goTo(tree.find(Number(button.dataset.node)));
  });
  $("promote").addEventListener("click", promoteCurrent);
  $("delete-branch").addEventListener("click", deleteCurrent);
  setup.bind();
  $("save").addEventListener("click", records.saveRecord);
  $("load").addEventListener("click", () => $("load-file").click());
  $("load-file").addEventListener("change", async () => {
    const file = $("load-file").files[0];
    if (file) await records.loadRecord(await file.text());
    $("load-file").value = "";
  });
  $("record-show").addEventListener("click", async () => {
    await busy(async () => { $("record-text").value = await records.recordText(); });
  });
  $("record-load").addEventListener("click", () => records.loadRecord($("record-text").value));
  records.listenForDrops(document);
  // Closing or reloading the tab with unsaved work asks first (the page keeps a copy all the same).
  window.addEventListener("beforeunload", (event) => {
    if (!unsaved()) return;
    event.preventDefault();
    event.returnValue = "";
  });
  // hook: the review's controls
  $("review-start").addEventListener("click", () => review.start());
  $("review-stop").addEventListener("click", () => review.stop());
  $("review-limit").addEventListener("change", keep);
  $("review-threshold").addEventListener("input", () => { keep(); review.render(); });
  $("review-line").addEventListener("change", () => { keep(); review.render(); });
  document.addEventListener("keydown", (event) => {
    const typing = event.target instanceof HTMLElement && event.target.closest("input, textarea, select") !== null;
    if (event.key === "Escape" && S.chosen.length) {
      if (typing && event.target.id === "move-input") event.target.value = "";
      cancelMove();
      return;
    }
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    const p = S.position;
    if (!p) return;
    const steps = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last", ArrowUp: "up", ArrowDown: "down" };
    if (event.key in steps) {
      event.preventDefault();
      goTo(stepTarget(steps[event.key]));
    } else if (event.key === "m" || event.key === "/") {
      event.preventDefault();
      $("move-input").focus();
    }
  });
}

/** Work not saved in a record: moves or a set-up changed since the last save or load. */
function unsaved() {
  return tree.dirty && (tree.root.children.length > 0 || tree.root.setup !== null);
}

/** Keep the tree and the settings in localStorage. */
function keep() {
  if (S.session) records.store(settings());
}

/** After a reload: the kept tree and settings, the session rebuilt to the node shown. */
async function restore(kept) {
  applySettings(kept.settings);
  if ($("time-select").value !== "default") await setTime($("time-select").value);
  let restored = false;
  try {
    tree.restore(kept.tree);
    await records.rebuildSession();
    panels.setStatus("The game was restored from this browser's copy.");
    restored = true;
  } catch (error) {
    panels.showMessage(`Cannot restore the kept game: ${error.message}. Starting afresh.`);
    records.forget();
    // The moves before the one refused are on the board: clear it (where the game was set, its size is).
    await bridge.gtp([`boardsize ${kept.tree.size}`], true);
    tree.reset(null, null);
  }
  await freshClocks(); // play: the kept time control, both clocks afresh, the new session told
  return restored;
}

async function start() {
  bindControls();
  review.connect({ bridge, busy, refresh }); // hook: the review talks through the page's queue
  connect({
    gtp: (lines, lenient = false) => bridge.gtp(lines, lenient), refresh, busy, render, maybeEngineMove,
    fresh: freshClocks, // play: a new game tree's clocks
    status: panels.setStatus, message: panels.showMessage, clearMessage: panels.clearMessage,
  });
  const kept = records.stored(); // read before the first refresh replaces it
  tree.onChange(() => {
    S.future = tree.future(tree.current).map((n) => [n.colour, n.move]);
    keep();
    if (S.position) panels.renderPanel();
  });
  try {
    S.session = await bridge.open();
    document.body.dataset.session = S.session;
  } catch (error) {
    panels.setStatus(`Cannot start a session: ${error.message}`);
    return;
  }
  let restored = false;
  await busy(async () => {
    const [playouts, seconds] = await bridge.gtp(["stargtp-param playouts", "stargtp-param seconds"], true);
    if (playouts.ok) S.defaults.playouts = playouts.text.trim();
    if (seconds.ok) S.defaults.seconds = seconds.text.trim();
    describeDefaultTime();
    if (kept) restored = await restore(kept);
    await refresh();
    if (!restored) {
      S.engine = engineSideFor(S.game);
      $("engine-select").value = S.engine;
    }
    keep();
  });
  if (restored) maybeEngineMove();
}

// For tests and for the curious, in the console: the page's state.
window.stargtpState = () => ({
  busy: S.busy, thinking: S.thinking, future: S.future.length, setup: S.setup !== null,
  node: tree.path(tree.current), dirty: tree.dirty, engine: S.engine, epoch: S.epoch,
  analysis: { wanted: S.analysis.wanted, running: S.analysis.running, report: S.analysis.report !== null },
  streams: bridge.streams.map((stream) => ({ colour: stream.colour, position: stream.key })),
  chosen: S.chosen, targets: S.targets, moves: S.position ? S.position.moves.length : null,
  ended: S.ended && { reason: S.ended.reason, loser: S.ended.loser, text: S.ended.text }, hint: S.hint, clock: clock.state(), zoom: zoom.state(),
});

start();
