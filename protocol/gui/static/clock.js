// The clocks: a time control chosen on the page (none, sudden death, Fischer
// increment, byo-yomi), both players' clocks shown and running, the engine
// told its clock (time_settings or kgs-time_settings, then time_left before
// each of its searches; docs/protocol.md), and the flag that falls when a
// clock runs out. The rules of a clock are those of protocol/clock.py, the
// match referee's (charge and allowance): absolute time, absolute time with
// an increment after each move, main time then periods of byo-yomi, a
// period overrun using one up. Nothing here knows a game.

import { S, $, title } from "./state.js";

const COLOURS = ["black", "white"];

/** The time control: system none | absolute | fischer | byoyomi; main time
 * (seconds); extra: the increment (fischer) or the period (byoyomi), in
 * seconds; periods (byoyomi). */
export const control = { system: "none", main: 0, extra: 0, periods: 0 };

/** Each colour's clock between moves: seconds (main time, or the current
 * period's) and stones (0 in main time, else the periods left). */
const left = { black: { seconds: 0, stones: 0 }, white: { seconds: 0, stones: 0 } };

/** The clock running now: {colour, moves (the move count it started at), since (ms)}, or null. */
let runner = null;
let ticker = null;
let onFlag = () => {};

export function limited() {
  return control.system !== "none";
}

function start() {
  if (control.main > 0 || control.system !== "byoyomi") return { seconds: control.main, stones: 0 };
  return { seconds: control.extra, stones: control.periods };
}

/** The clock after a whole move of `seconds` (protocol/clock.py TimeControl.charge). */
export function charge(clock, seconds) {
  let { seconds: have, stones } = clock;
  if (stones === 0) {
    const remaining = have - seconds;
    if (remaining >= 0 || control.system !== "byoyomi") {
      return { seconds: Math.max(remaining, 0) + (control.system === "fischer" ? control.extra : 0), stones: 0 };
    }
    ({ seconds: have, stones } = { seconds: control.extra, stones: control.periods });
    seconds = -remaining;
  }
  if (seconds > have) stones -= Math.ceil((seconds - have) / control.extra);
  return { seconds: control.extra, stones: Math.max(stones, 1) };
}

/** The seconds a move may take from `clock` before the flag falls (clock.py allowance). */
export function allowance(clock) {
  if (control.system === "byoyomi") {
    const periods = clock.stones === 0 ? control.periods : clock.stones - 1;
    return clock.seconds + periods * control.extra;
  }
  return clock.seconds;
}

/** What the clock shows `elapsed` seconds into a move: {seconds, stones, flagged}. */
export function live(clock, elapsed) {
  if (elapsed >= allowance(clock)) return { seconds: 0, stones: 0, flagged: true };
  if (elapsed < clock.seconds) return { seconds: clock.seconds - elapsed, stones: clock.stones, flagged: false };
  // In byo-yomi: the periods used up so far, the current one's time left.
  const over = elapsed - clock.seconds;
  const periods = clock.stones === 0 ? control.periods : clock.stones - 1;
  const used = Math.floor(over / control.extra);
  return { seconds: control.extra - (over - used * control.extra), stones: periods - used, flagged: false };
}

/** The protocol lines that tell the engine the time control (as the match referee sends them). */
export function settingsLines() {
  const t = (seconds) => secondsText(seconds, true);
  switch (control.system) {
    case "absolute":
    case "fischer": // GTP has no increment: absolute time, and time_left shows the increments as they come
      return [`time_settings ${t(Math.max(control.main, 0.001))} 0 0`];
    case "byoyomi":
      return [`kgs-time_settings byoyomi ${t(control.main)} ${t(control.extra)} ${control.periods}`];
    default:
      return ["kgs-time_settings none"];
  }
}

/** `time_left COLOUR SECONDS STONES` for the clock of `colour` now (rounded down to the millisecond). */
export function timeLeftLine(colour) {
  const now = current(colour);
  return `time_left ${colour} ${secondsText(now.seconds, false)} ${now.stones}`;
}

function secondsText(seconds, up) {
  const ticks = Math.max(up ? Math.ceil(seconds * 1000 - 1e-6) : Math.floor(seconds * 1000 + 1e-6), 0);
  return (ticks / 1000).toFixed(3).replace(/\.?0+$/, "") || "0";
}

function elapsed() {
  return runner ? (performance.now() - runner.since) / 1000 : 0;
}

/** A colour's clock now (the running one as it is this instant). */
export function current(colour) {
  if (runner && runner.colour === colour) return live(left[colour], elapsed());
  return { ...left[colour], flagged: left[colour].flagged === true };
}

/** Read the time-control inputs; both clocks start afresh. */
export function readControls() {
  const number = (id) => {
    const value = Number($(id).value);
    return Number.isFinite(value) && value > 0 ? value : 0;
  };
  control.system = $("clock-system").value;
  control.main = number("clock-main") * 60;
  control.extra = control.system === "fischer" || control.system === "byoyomi" ? number("clock-extra") : 0;
  control.periods = control.system === "byoyomi" ? Math.max(1, Math.round(number("clock-periods"))) : 0;
  if (control.system === "byoyomi" && control.extra <= 0) control.system = control.main > 0 ? "absolute" : "none";
  if ((control.system === "absolute" || control.system === "fischer") && control.main <= 0) control.system = "none";
  showInputs();
  reset();
}

/** Show the inputs the chosen system uses. */
export function showInputs() {
  const system = $("clock-system").value;
  $("clock-extra-label").hidden = system !== "fischer" && system !== "byoyomi";
  $("clock-extra-name").textContent = system === "fischer" ? "Increment (s)" : "Period (s)";
  $("clock-periods-label").hidden = system !== "byoyomi";
  $("clock-main-label").hidden = system === "none";
}

/** Both clocks back to the start of the time control, stopped: the next
 * update starts the one to move in the position then shown (a new game's or
 * a loaded record's, not the one before it, which would be charged a move). */
export function reset() {
  for (const colour of COLOURS) left[colour] = start();
  runner = null;
  draw();
}

/** Called after every change of what is shown: stop the clock that ran
 * (charging its move if the move was made), start the one of the side to
 * move in the game's latest position, unless the game is over, a set-up
 * is being edited or a whole-game review runs. */
export function update() {
  const p = S.position;
  const playing = limited() && p && !p.over && !S.ended && !S.setup && !S.reviewing && S.future.length === 0;
  if (runner && (!playing || p.moves.length !== runner.moves || p.to_move !== runner.colour)) {
    const spent = elapsed();
    const colour = runner.colour;
    const moved = playing && p.moves.length === runner.moves + 1 && p.moves.at(-1)[0] === colour;
    const now = live(left[colour], spent);
    runner = null;
    if (now.flagged) { // the time ran out before the next tick saw it: the flag falls now
      left[colour] = { seconds: 0, stones: 0, flagged: true };
      setTimeout(() => onFlag(colour), 0);
    } else {
      left[colour] = moved ? charge(left[colour], spent) : { seconds: now.seconds, stones: now.stones };
    }
  }
  if (playing && !runner && !left[p.to_move].flagged) {
    runner = { colour: p.to_move, moves: p.moves.length, since: performance.now() };
  }
  if (runner && !ticker) ticker = setInterval(tick, 100);
  if (!runner && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
  draw();
}

function tick() {
  if (!runner) return;
  const colour = runner.colour;
  if (current(colour).flagged) {
    runner = null;
    left[colour] = { seconds: 0, stones: 0, flagged: true };
    update();
    onFlag(colour);
    return;
  }
  draw();
}

/** What to do when a flag falls: `handler(colour)`. */
export function whenFlagged(handler) {
  onFlag = handler;
}

export function format(seconds) {
  if (seconds < 10) return `0:0${seconds.toFixed(1)}`;
  const whole = Math.floor(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
}

function draw() {
  const box = $("clocks");
  box.hidden = !limited() || !S.position;
  box.dataset.system = control.system;
  box.dataset.running = runner ? runner.colour : "";
  for (const colour of COLOURS) {
    const face = $(`clock-${colour}`);
    const now = current(colour);
    face.classList.toggle("running", Boolean(runner && runner.colour === colour));
    face.classList.toggle("flagged", now.flagged);
    face.classList.toggle("short", !now.flagged && now.stones <= 1 && now.seconds < 10);
    face.dataset.seconds = now.seconds.toFixed(1);
    face.dataset.stones = String(now.stones);
    face.dataset.flagged = now.flagged ? "1" : "0";
    let text = now.flagged ? "time" : format(now.seconds);
    if (!now.flagged && control.system === "byoyomi") {
      const periods = now.stones === 0 ? control.periods : now.stones;
      text += now.stones === 0 ? ` +${periods}\u00d7${control.extra}s` : ` (${periods} left)`;
    } else if (!now.flagged && control.system === "fischer") {
      text += ` +${control.extra}s`;
    }
    face.querySelector(".time").textContent = text;
    face.querySelector(".who").textContent = title(colour);
  }
}

/** For tests and the curious: the clocks' state. */
export function state() {
  return { control: { ...control }, running: runner ? runner.colour : null,
    black: current("black"), white: current("white") };
}
