// The side panel: the menus (built from stargtp-games), whose turn it is, the
// score (stargtp-position's breakdown, whatever its fields), the move list
// and which controls may be used now.

import { highlightScoreItem, isPoint } from "./board.js";
import { S, $, canPlayNow, endedHere, engineSide, otherMoves, title } from "./state.js";
import { renderMoveList, updateTreeControls } from "./tree.js";

function option(value, text) {
  const node = document.createElement("option");
  node.value = String(value);
  node.textContent = text;
  return node;
}

function sameOptions(select, values) {
  return [...select.options].map((o) => o.value).join("\n") === values.map(String).join("\n");
}

/** The Game and Size menus, from the games the server plays. */
export function renderMenus() {
  const games = $("game-select");
  if (!sameOptions(games, S.games.map((g) => g.name))) {
    games.replaceChildren(...S.games.map((g) => option(g.name, g.title)));
  }
  if (!S.game) return;
  games.value = S.game.name;
  const sizes = $("size-select");
  if (!sameOptions(sizes, S.game.sizes)) {
    sizes.replaceChildren(...S.game.sizes.map((n) => option(n, sizeText(S.game, n))));
  }
  sizes.value = String(S.size);
  renderOptions();
}

/** A checkbox per option of the current game (stargtp-rules), for the next
 * new game: the option chosen, else the session's value; hidden for a game without. */
function renderOptions() {
  const box = $("game-options");
  const list = $("game-options-list");
  box.hidden = !S.rules.length;
  const names = S.rules.map((rule) => rule.name);
  if ([...list.querySelectorAll("input")].map((input) => input.dataset.option).join(" ") !== names.join(" ")) {
    list.replaceChildren(...names.map((name) => {
      const label = document.createElement("label");
      label.className = "check";
      const input = document.createElement("input");
      input.type = "checkbox";
      input.dataset.option = name;
      input.id = `option-${name}`;
      label.append(input, ` The ${name} rule`);
      return label;
    }));
  }
  for (const rule of S.rules) {
    $(`option-${rule.name}`).checked = rule.name in S.options ? S.options[rule.name] : rule.on;
  }
}

/** A button per legal move of the side to move that is no point of the
 * board and not the pass (such as a swap), enabled when a person may play. */
function renderOtherMoves() {
  const box = $("other-moves");
  const moves = S.setup ? [] : otherMoves(isPoint);
  if ([...box.children].map((b) => b.dataset.move).join(" ") !== moves.join(" ")) {
    box.replaceChildren(...moves.map((move) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.move = move;
      button.textContent = move;
      button.title = `Play ${move}`;
      return button;
    }));
  }
  box.hidden = !moves.length;
  for (const button of box.children) button.disabled = !canPlayNow();
}

export function sizeText(game, size) {
  return `${size} ${game.size_word}`;
}

/** Everything in the panel that depends on the position. */
export function renderPanel() {
  const p = S.position;
  const game = S.game;
  renderMenus();
  const toMove = $("to-move");
  toMove.replaceChildren();
  if (!p) {
    toMove.textContent = "";
  } else if (p.over) {
    toMove.textContent = `Game over: ${p.score ? describeResult(p.score.result) : "no result"}.`;
  } else if (S.ended) { // play: a resignation or a flag
    toMove.textContent = `Game over: ${S.ended.text}`;
  } else {
    const who = engineSide(p.to_move) ? "engine" : "you";
    const dot = document.createElement("span");
    dot.className = `dot ${p.to_move}`;
    toMove.append(dot, ` ${title(p.to_move)} to move (${who}), move ${p.moves.length + 1}.`);
  }
  toMove.dataset.toMove = p ? p.to_move : "";
  toMove.dataset.ended = S.ended ? S.ended.reason : "";
  if (game) {
    $("move-input").placeholder = `e.g. ${game.move_hint}`;
    $("move-help").textContent = `${game.move_hint[0].toUpperCase()}${game.move_hint.slice(1)}; Enter plays it.` +
      (game.parts > 1 ? " Typing the first parts highlights the next choices on the board." : "");
  }
  renderScore();
  renderMoveList($("move-list"));
  updateControls();
}

/** `B+17` in words: who wins (or, mid-game, leads) and by how much. */
export function describeResult(result, over = true) {
  if (result === "0") return over ? "a tie (0)" : "even (0)";
  const m = /^([BW])\+(.*)$/.exec(result);
  if (!m) return result;
  const who = m[1] === "B" ? "Black" : "White";
  const verb = over ? "wins" : "leads";
  if (m[2] === "") return `${who} ${verb} (${result})`; // a game without margins
  return m[2] === "0" ? `${who} ${verb} on the tie-break (${result})` : `${who} ${verb} by ${m[2]} (${result})`;
}

function words(key) {
  return key.replace(/_/g, " ");
}

/** A fact's name on the score card. While the game goes on, what the score
 * calls dead (`dead_...`) is only not scoring yet: a group may still grow
 * into a scoring one, so "dead groups: 2" reads "groups not yet scoring: 2". */
function factName(key, over) {
  const dead = /^dead_(.+)$/.exec(key);
  return dead && !over ? `${words(dead[1])} not yet scoring` : words(key);
}

function num(value) {
  return typeof value === "number" && !Number.isInteger(value) ? String(Math.round(value * 1e6) / 1e6) : String(value);
}

/** The score, from the game's own breakdown: the result, then a table of
 * what each colour has (the fields that hold one value per colour), each
 * list (one line per item) and the other facts. */
function renderScore() {
  const p = S.position;
  const box = $("score");
  box.replaceChildren();
  const score = p ? p.score : null;
  box.dataset.result = score ? score.result : "";
  const line = (className, text) => {
    const node = document.createElement("p");
    node.className = className;
    node.textContent = text;
    box.appendChild(node);
    return node;
  };
  if (!p) return;
  if (!score) {
    line("result", "No score yet: the game cannot be scored in this position.");
    line("detail", "Live analysis estimates the outcome meanwhile.");
    return;
  }
  line("result", `${p.over ? "Final score" : "Score now"}: ${describeResult(score.result, p.over)}.`);
  const rows = []; // [key, {black, white}]
  const lists = [];
  const facts = [];
  for (const [key, value] of Object.entries(score)) {
    if (key === "result") continue;
    if (key === "black" || key === "white") continue;
    if (Array.isArray(value) && value.every((item) => item && typeof item === "object")) lists.push([key, value]);
    else if (Array.isArray(value)) facts.push([key, value.join(" ")]); // points, such as a winning group
    else if (value && typeof value === "object" && "black" in value && "white" in value) rows.push([key, value]);
    else facts.push([key, value]);
  }
  if (score.black && typeof score.black === "object" && score.white) {
    for (const key of Object.keys(score.black)) rows.push([key, { black: score.black[key], white: score.white[key] }]);
  }
  if (rows.length) {
    const table = document.createElement("table");
    table.className = "score-table";
    const head = table.createTHead().insertRow();
    head.appendChild(document.createElement("th"));
    for (const colour of ["black", "white"]) {
      const th = document.createElement("th");
      th.innerHTML = `<span class="dot ${colour}"></span> `;
      th.append(title(colour));
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const [key, value] of rows) {
      const row = body.insertRow();
      row.dataset.key = key;
      const name = document.createElement("th");
      name.textContent = words(key);
      row.appendChild(name);
      for (const colour of ["black", "white"]) {
        const cell = row.insertCell();
        cell.dataset.key = key;
        cell.dataset.colour = colour;
        cell.textContent = num(value[colour]);
      }
    }
    box.appendChild(table);
  }
  for (const [key, items] of lists) {
    const list = document.createElement("ul");
    list.className = "score-list";
    list.dataset.key = key;
    items.forEach((item, k) => {
      const entry = document.createElement("li");
      entry.tabIndex = 0;
      entry.dataset.index = String(k);
      const colour = item && item.colour;
      if (colour) {
        entry.innerHTML = `<span class="dot ${colour}"></span> `;
      }
      const parts = Object.entries(item || {}).filter(([field]) => field !== "colour")
        .map(([field, value]) => `${words(field)} ${Array.isArray(value) ? value.length : num(value)}`);
      entry.append(`${colour ? title(colour) : ""} ${words(key).replace(/s$/, "")} ${k + 1}: ${parts.join(", ")}`.trim());
      const highlight = (on) => highlightScoreItem(`${key}.${k}`, on);
      entry.addEventListener("mouseenter", () => highlight(true));
      entry.addEventListener("mouseleave", () => highlight(false));
      entry.addEventListener("focus", () => highlight(true));
      entry.addEventListener("blur", () => highlight(false));
      list.appendChild(entry);
    });
    if (!items.length) {
      const entry = document.createElement("li");
      entry.className = "none";
      entry.textContent = `No ${words(key)}.`;
      list.appendChild(entry);
    }
    box.appendChild(list);
  }
  if (facts.length) {
    const detail = line("detail", facts.map(([key, value]) => `${factName(key, p.over)}: ${value === true ? "yes" : value === false ? "no" : num(value)}`).join("; "));
    for (const [key, value] of facts) detail.dataset[key.replace(/_(.)/g, (_, c) => c.toUpperCase())] = String(value);
  }
}

/** Which controls may be used now. */
export function updateControls() {
  const p = S.position;
  const game = S.game;
  const idle = S.busy === 0 && !S.thinking;
  const ready = Boolean(p) && idle && !S.setup; // set-up mode: only its own card
  const total = p ? p.moves.length + S.future.length : 0;
  $("thinking").hidden = !S.thinking;
  $("new-game").disabled = !S.session;
  $("engine-move").disabled = !ready || p.over || endedHere();
  $("pass").hidden = !game || game.pass === null;
  $("pass").disabled = !(ready && !p.over && game.pass !== null && (S.legal[p.to_move] || []).includes(game.pass)) ||
    !canPlayNow();
  $("undo").disabled = !ready || (p.moves.length === 0 && !S.ended) || Boolean(S.ended && S.ended.reason === "time");
  // play: Hint for the side to move, Resign for a person to move
  const live = ready && !p.over && !S.ended;
  $("hint").disabled = !live;
  $("resign").disabled = !live || S.future.length > 0 || engineSide(p.to_move);
  const ended = endedHere() || Boolean(S.setup); // play: resigned or flagged here; tree: set-up mode
  $("move-input").disabled = !p || p.over || S.thinking || ended;
  $("move-submit").disabled = !p || p.over || S.thinking || ended || (S.future.length === 0 && engineSide(p.to_move));
  $("nav-first").disabled = !ready || p.moves.length === 0;
  $("nav-back").disabled = !ready || p.moves.length === 0;
  $("nav-forward").disabled = !ready || p.moves.length >= total;
  $("nav-last").disabled = !ready || p.moves.length >= total;
  const records = ready && game && game.records;
  $("save").disabled = !records;
  $("load").disabled = !ready && !(!p && idle);
  $("record-load").disabled = !ready && !(!p && idle);
  $("record-show").disabled = !records;
  $("cancel").hidden = !S.chosen.length;
  renderOtherMoves();
  updateTreeControls(ready);
  $("board").classList.toggle("playable", canPlayNow());
}

export function setStatus(text) {
  $("status").textContent = text;
}

let messageTimer = null;

export function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(clearMessage, 8000);
}

export function clearMessage() {
  $("message").hidden = true;
}
