// The analysis: kata-analyze's report lines (and genmove_analyze's while the
// engine thinks), the win-rate bar and the best moves in the Analysis card,
// the marks over the board. A report belongs to the position it was asked
// about, and shows only while that position is the one on the board.

import { drawAnalysis } from "./board.js";
import { S, $, positionKey, title } from "./state.js";
import { splitWords } from "./bridge.js";

const PLAIN_KEYS = new Set(["move", "visits", "winrate", "order", "utility"]);

/** One report line: the moves (most visited first) and the game's own field
 * (`ownership` values, or `territory MINE THEIRS`). */
export function parseReport(line) {
  const words = splitWords(line);
  const moves = [];
  let ownership = null;
  let territory = null;
  let current = null;
  let inLine = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === "info") {
      current = { pv: [] };
      moves.push(current);
      inLine = false;
    } else if (word === "ownership") {
      ownership = words.slice(i + 1).map(Number);
      break;
    } else if (word === "territory") {
      territory = [Number(words[i + 1]), Number(words[i + 2])];
      i += 2;
      current = null;
    } else if (current && word === "pv") {
      inLine = true;
    } else if (current && inLine && !PLAIN_KEYS.has(word)) {
      current.pv.push(word);
    } else if (current && i + 1 < words.length) {
      inLine = false;
      current[word] = word === "move" ? words[i + 1] : Number(words[i + 1]);
      i++;
    }
  }
  return { moves, ownership, territory };
}

/** A line of a stream the page opened: the latest report, if it says something. */
export function onReport(stream, line) {
  if (!line.startsWith("info")) return;
  const report = parseReport(line);
  if (!report.moves.length) return;
  report.colour = stream.colour;
  report.key = stream.key;
  S.analysis.report = report;
  if (S.analysis.wanted || S.thinking) show();
}

/** The report about the position on the board, if one has come. */
function freshReport() {
  const report = S.analysis.report;
  const p = S.position;
  return report && p && report.key === positionKey(p) ? report : null;
}

/** Draw the analysis: the card and the marks. */
export function show() {
  const report = freshReport();
  const visible = S.analysis.wanted || S.thinking;
  drawAnalysis(visible ? report : null, visible && S.analysis.wanted && $("ownership-toggle").checked);
  const box = $("analysis");
  box.hidden = !visible;
  box.dataset.source = S.thinking ? "engine" : "analysis";
  const body = $("best-moves").tBodies[0];
  body.replaceChildren();
  const rate = $("winrate");
  for (const key of ["winrate", "colour", "territoryMine", "territoryTheirs"]) delete rate.dataset[key];
  const p = S.position;
  if (!report) {
    rate.textContent = p && p.over ? "The game is over." : S.thinking ? "The engine is searching\u2026" : "Analysing\u2026";
    $("winbar-black").style.width = "50%";
    return;
  }
  const mine = report.moves[0].winrate;
  const black = report.colour === "black" ? mine : 1 - mine;
  $("winbar-black").style.width = `${(black * 100).toFixed(1)}%`;
  const visits = report.moves.reduce((sum, m) => sum + (m.visits || 0), 0);
  let text = `${S.thinking ? "The engine's search" : "Win rate"}: Black ${(black * 100).toFixed(1)}%, ` +
    `White ${((1 - black) * 100).toFixed(1)}% (${visits.toLocaleString("en")} visits, ${title(report.colour)}'s moves below).`;
  if (report.territory) {
    const [own, theirs] = report.territory;
    text += ` Expected territory: ${title(report.colour)} ${own}, the other ${theirs}.`;
    rate.dataset.territoryMine = String(own);
    rate.dataset.territoryTheirs = String(theirs);
  }
  rate.textContent = text;
  rate.dataset.winrate = String(mine);
  rate.dataset.colour = report.colour;
  report.moves.slice(0, 8).forEach((m, k) => {
    const row = body.insertRow();
    row.dataset.move = m.move;
    row.dataset.visits = String(m.visits);
    if (k === 0) row.className = "top";
    for (const value of [m.move, String(m.visits), `${((m.winrate || 0) * 100).toFixed(1)}%`, m.pv.slice(1, 6).join(" ")]) {
      row.insertCell().textContent = value;
    }
  });
}
