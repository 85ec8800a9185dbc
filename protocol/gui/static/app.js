// stargtp's browser front end: plain JavaScript, no framework, no build step.
//
// The page knows the games only through the protocol, spoken to the HTTP
// bridge of `stargtp gui` (POST /session, POST /gtp, GET /events, POST /close):
// stargtp-geometry draws the board, stargtp-position the pieces and the score,
// all_legal (whole and partial) says which clicks are legal, genmove and
// genmove_analyze make the engine move, kata-analyze feeds the live analysis,
// printsgf and stargtp-loadsgf-text save and load records. docs/gui.md
// describes every control; the SVG follows protocol/pictures (same colours,
// same geometry).
"use strict";

(() => {
  // -- the pictures' style (protocol/pictures/svg.py, star.py, amazons.py) -------
  const STONE_FILL = { black: "#1b1b1b", white: "#fafafa" };
  const STONE_EDGE = { black: "#000000", white: "#3a3a3a" };
  const LAST_MOVE = "#d62828";
  const STAR_BACKGROUND = "#ecd3a0";
  const STAR_LINE = "#6b5234";
  const BRIDGE_FILL = "#d9a93c";
  const TEXT_ON = { black: "#f0f0f0", white: "#202020", empty: "#6b5234" };
  const LIGHT_SQUARE = "#f0d9b5";
  const DARK_SQUARE = "#b58863";
  const AMAZONS_EDGE = "#5a4126";
  const ARROW_FILL = "#a4262c";
  const ARROW_EDGE = "#5c1014";
  const HIGHLIGHT = "#f6e05e";
  const MARK_BLUE = "#1f6feb";
  const MARK_GREEN = "#2f9e44";
  const ARMS = "*STAR";
  const SVG_NS = "http://www.w3.org/2000/svg";

  const SIZES = { star: [2, 3, 4, 5, 6, 7, 8, 9, 10], amazons: [6, 8, 10] };
  const DEFAULT_SIZE = { star: 6, amazons: 10 };
  const SECOND_PLAYER = { star: "white", amazons: "black" };
  const ANALYSIS_INTERVAL = 40; // centiseconds between analysis reports
  const BEST_MOVES_SHOWN = 5;

  // -- state --------------------------------------------------------------------
  const S = {
    session: null,
    geometry: null, // stargtp-geometry
    position: null, // stargtp-position
    legal: { black: [], white: [] }, // all_legal b / all_legal w
    future: [], // moves stepped back over, [colour, move], next first
    engine: "white",
    defaults: { playouts: "none", seconds: "none" },
    busy: 0, // commands in flight that change what is shown
    thinking: false,
    epoch: 0, // bumped by new game / load: stale engine replies do not chain
    analysis: { wanted: false, running: false, report: null },
    selection: null, // Amazons: {from, to, targets} while a move is built
    hover: null, // the point under the mouse
  };
  const geometryCache = new Map();
  const $ = (id) => document.getElementById(id);

  // -- the bridge ---------------------------------------------------------------
  let chain = Promise.resolve();
  let streamGate = null; // resolves once a running stream may be stopped by the next line
  // The streaming commands sent and not yet ended, oldest first: each is
  // {colour, moves, opened}. The event stream carries their lines in order and
  // one `end` event after each, so a line belongs to the oldest one.
  const streams = [];

  function enqueue(task) {
    const result = chain.then(task);
    chain = result.catch(() => {});
    return result;
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST", body, headers: { "Content-Type": "text/plain; charset=utf-8" },
      cache: "no-store",
    });
    const text = await response.text();
    if (response.status === 404 && path.startsWith("/gtp")) {
      throw new Error("The engine session has ended (idle for too long, or the server restarted): reload the page.");
    }
    if (!response.ok) throw new Error(`${response.status}: ${text.trim() || response.statusText}`);
    return text;
  }

  /** Split a bridge answer into responses: {ok, text} each (GTP: '=' or '?', a blank line ends one). */
  function parseResponses(text) {
    const responses = [];
    for (const block of text.split("\n\n")) {
      if (!block.trim()) continue;
      const status = block[0];
      let rest = block.slice(1);
      rest = rest.replace(/^\d+/, ""); // an id (the page sends none)
      rest = rest.startsWith(" ") ? rest.slice(1) : rest.startsWith("\n") ? rest.slice(1) : rest;
      responses.push({ ok: status === "=", text: rest });
    }
    return responses;
  }

  /** Run command lines in order; the responses. Throws on an HTTP error, or on '?' unless lenient. */
  function gtp(lines, lenient = false) {
    return enqueue(async () => {
      await waitForStreamGate();
      const text = await post(`/gtp?session=${S.session}`, lines.join("\n") + "\n");
      const responses = parseResponses(text);
      if (!lenient) {
        responses.forEach((r, i) => {
          if (!r.ok) throw new GtpError(lines[i], r.text);
        });
      }
      return responses;
    });
  }

  async function waitForStreamGate() {
    if (streamGate) {
      const gate = streamGate;
      streamGate = null;
      await gate;
    }
  }

  class GtpError extends Error {
    constructor(command, text) {
      super(text);
      this.command = command;
    }
  }

  async function one(line) {
    return (await gtp([line]))[0].text;
  }

  /** Send `# interrupt` now, outside the queue: the running genmove answers at once. */
  function interrupt() {
    if (S.session) post(`/gtp?session=${S.session}`, "# interrupt\n").catch(() => {});
  }

  function openEvents() {
    const source = new EventSource(`/events?session=${S.session}`);
    source.addEventListener("info", (event) => onStreamLine(event.data));
    source.addEventListener("end", () => {
      const stream = streams.shift();
      if (stream) stream.opened();
    });
    S.events = source;
    return new Promise((resolve) => {
      source.addEventListener("open", resolve, { once: true });
      setTimeout(resolve, 5000); // go on without it: the page still plays, without live lines
    });
  }

  /** Note a streaming command about to be sent: its lines will describe this position. */
  function newStream() {
    const p = S.position;
    let opened;
    const gate = new Promise((resolve) => { opened = resolve; });
    const stream = { colour: p.to_move, key: positionKey(p), opened: () => opened(), gate };
    streams.push(stream);
    return stream;
  }

  // -- session ------------------------------------------------------------------
  async function start() {
    bindControls();
    try {
      const answer = JSON.parse(await post("/session", ""));
      S.session = answer.session;
      document.body.dataset.session = S.session;
    } catch (error) {
      setStatus(`Cannot start a session: ${error.message}`);
      return;
    }
    window.addEventListener("pagehide", () => {
      if (S.session) navigator.sendBeacon(`/close?session=${S.session}`, "");
    });
    await openEvents();
    await busy(async () => {
      const [playouts, seconds] = await gtp(["stargtp-param playouts", "stargtp-param seconds"], true);
      if (playouts.ok) S.defaults.playouts = playouts.text.trim();
      if (seconds.ok) S.defaults.seconds = seconds.text.trim();
      describeDefaultTime();
      await refresh();
      S.engine = SECOND_PLAYER[S.position.game];
      $("engine-select").value = S.engine;
    });
  }

  function describeDefaultTime() {
    const { playouts, seconds } = S.defaults;
    const parts = [];
    if (seconds !== "none") parts.push(`${seconds} s`);
    if (playouts !== "none") parts.push(`${playouts} playouts`);
    $("time-select").options[0].textContent = parts.length ? `${parts.join(", ")} (server)` : "Server setting";
  }

  /** Run an action with the page marked busy (board locked, data-idle 0); report errors. */
  async function busy(action) {
    S.busy++;
    updateIdle();
    try {
      return await action();
    } catch (error) {
      showMessage(error instanceof GtpError ? `${error.command}: ${error.message}` : String(error.message || error));
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
    updateControls();
  }

  /** Fetch the position and the legal moves, then draw everything. */
  async function refresh() {
    const responses = await gtp(["stargtp-position", "all_legal b", "all_legal w"]);
    const position = JSON.parse(responses[0].text);
    S.legal = { black: splitWords(responses[1].text), white: splitWords(responses[2].text) };
    const key = `${position.game}:${position.size}`;
    if (!geometryCache.has(key)) {
      geometryCache.set(key, JSON.parse(await one("stargtp-geometry")));
    }
    const geometry = geometryCache.get(key);
    const newBoard = !S.geometry || S.geometry !== geometry;
    S.geometry = geometry;
    S.position = position;
    S.selection = null;
    if (newBoard) {
      S.analysis.report = null;
      buildBoard();
    }
    syncSelects();
    render();
  }

  /** What an analysis report describes: the game, the size and every move. */
  function positionKey(p) {
    return `${p.game} ${p.size} ${p.moves.map((m) => m.join(" ")).join(",")}`;
  }

  function splitWords(text) {
    return text.split(/\s+/).filter(Boolean);
  }

  // -- engine moves -------------------------------------------------------------
  function engineSide(colour) {
    return S.engine === "both" || S.engine === colour;
  }

  function maybeEngineMove() {
    const p = S.position;
    if (!p || p.over || S.thinking || S.future.length) return;
    if (engineSide(p.to_move)) engineMove();
  }

  async function engineMove() {
    const p = S.position;
    if (!p || p.over || S.thinking) return;
    const colour = p.to_move;
    const epoch = S.epoch;
    S.thinking = true;
    S.selection = null;
    S.analysis.report = null;
    $("thinking-text").textContent = `${title(colour)} (engine) is thinking\u2026`;
    updateIdle();
    render();
    let played = null;
    try {
      if (S.analysis.wanted) {
        const [answer] = await enqueue(async () => {
          await waitForStreamGate();
          const stream = newStream();
          try {
            return parseResponses(await post(`/gtp?session=${S.session}`, `genmove_analyze ${colour} ${ANALYSIS_INTERVAL}\n`));
          } catch (error) {
            streams.splice(streams.indexOf(stream), 1);
            throw error;
          }
        });
        if (!answer.ok) throw new GtpError("genmove_analyze", answer.text);
        const last = answer.text.split("\n").filter((line) => line.startsWith("play "));
        played = last.length ? last[last.length - 1].slice(5).trim() : null;
      } else {
        played = (await one(`genmove ${colour}`)).trim();
      }
    } catch (error) {
      showMessage(`The engine failed: ${error.message}`);
    }
    S.thinking = false;
    S.future = [];
    S.analysis.report = null;
    await busy(refresh);
    if (played) setStatus(`${title(colour)} (engine) ${played === "pass" ? "passed" : `played ${played}`}.`);
    // A failed search does not try again by itself (Engine move does).
    if (played && epoch === S.epoch) maybeEngineMove();
  }

  // -- human moves --------------------------------------------------------------
  function canPlayNow() {
    const p = S.position;
    return p && !p.over && S.busy === 0 && !S.thinking && !engineSideBlocking();
  }

  function engineSideBlocking() {
    // While reviewing an earlier position, either side may be played by hand.
    return S.future.length === 0 && engineSide(S.position.to_move);
  }

  async function playMove(move) {
    const p = S.position;
    const colour = p.to_move;
    await busy(async () => {
      const [answer] = await gtp([`play ${colour} ${move}`], true);
      if (!answer.ok) {
        // The server says why, naming the move: "illegal move: S42 is occupied".
        showMessage(answer.text.startsWith("illegal move") ? answer.text : `${move}: ${answer.text}`);
        return;
      }
      clearMessage();
      const next = S.future[0];
      if (next && next[0] === colour && sameMove(next[1], move)) S.future.shift();
      else S.future = [];
      await refresh();
    });
    maybeEngineMove();
  }

  function sameMove(a, b) {
    return a.toLowerCase().replace(/[^a-z0-9*]/g, "") === b.toLowerCase().replace(/[^a-z0-9*]/g, "");
  }

  // -- the board: drawing -------------------------------------------------------
  const svg = () => $("board");

  function el(name, attributes = {}, parent = null, text = null) {
    const node = document.createElementNS(SVG_NS, name);
    for (const [key, value] of Object.entries(attributes)) {
      if (value !== null && value !== undefined) node.setAttribute(key, typeof value === "number" ? fmt(value) : value);
    }
    if (text !== null) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function fmt(value) {
    const text = value.toFixed(2).replace(/\.?0+$/, "");
    return text === "-0" || text === "" ? "0" : text;
  }

  function pointsAttr(list) {
    return list.map(([x, y]) => `${fmt(x)},${fmt(y)}`).join(" ");
  }

  function corner(radius, arm) {
    const angle = ((-90 + 72 * arm) * Math.PI) / 180;
    return [radius * Math.cos(angle), radius * Math.sin(angle)];
  }

  let layers = null;

  /** The parts of the board that depend only on the game and the size. */
  function buildBoard() {
    const g = S.geometry;
    const root = svg();
    root.replaceChildren();
    root.setAttribute("viewBox", g.viewBox.join(" "));
    root.dataset.game = g.game;
    root.dataset.size = String(g.size);
    root.setAttribute("font-family", "DejaVu Sans, Verdana, sans-serif");
    root.setAttribute("aria-label", g.game === "star" ? `*Star board, ${g.size} rings` : `Amazons board, ${g.size} by ${g.size}`);
    const base = el("g", { class: "base" }, root);
    layers = {
      base,
      score: el("g", { class: "score-layer" }, root),
      pieces: el("g", { class: "pieces" }, root),
      marks: el("g", { class: "marks" }, root),
      ownership: el("g", { class: "ownership-layer" }, root),
      selection: el("g", { class: "selection" }, root),
      analysis: el("g", { class: "analysis-layer" }, root),
    };
    if (g.game === "star") buildStarBase(base);
    else buildAmazonsBase(base);
    // The ownership overlay lies under the pieces: Amazons squares are tinted,
    // *Star pericells get a halo.
    root.insertBefore(layers.ownership, layers.pieces);
    S.index = new Map((g.cells || g.squares).map((p, i) => [p.label || p.name, i]));
  }

  function buildStarBase(base) {
    const g = S.geometry;
    const u = g.unit;
    const rings = g.size;
    el("polygon", { class: "board", fill: STAR_BACKGROUND, stroke: "none",
      points: pointsAttr([0, 1, 2, 3, 4].map((arm) => corner((rings + 1.45) * u, arm))) }, base);
    const inner = Math.cos((72 * Math.PI) / 180) / Math.cos((36 * Math.PI) / 180);
    const bridge = [];
    for (let arm = 0; arm < 5; arm++) {
      bridge.push(corner(u, arm));
      const angle = ((-90 + 72 * arm + 36) * Math.PI) / 180;
      bridge.push([u * inner * Math.cos(angle), u * inner * Math.sin(angle)]);
    }
    el("polygon", { class: "bridge", fill: BRIDGE_FILL, stroke: STAR_LINE, "stroke-width": 0.03 * u,
      points: pointsAttr(bridge) }, base);
    const lattice = el("g", { class: "lattice", stroke: STAR_LINE, "stroke-linecap": "round" }, base);
    const index = new Map(g.cells.map((c, i) => [c.label, i]));
    g.cells.forEach((cell, i) => {
      for (const name of cell.neighbours) {
        const j = index.get(name);
        if (j < i) continue;
        const other = g.cells[j];
        const perimeter = cell.pericell && other.pericell;
        el("line", { class: perimeter ? "edge perimeter" : "edge", x1: cell.x, y1: cell.y, x2: other.x, y2: other.y,
          "stroke-width": (perimeter ? 0.07 : 0.035) * u }, lattice);
      }
    });
    for (let arm = 0; arm < 5; arm++) {
      const [x, y] = corner((rings + 1.1) * u, arm);
      el("text", { class: "arm", x, y: y + 0.18 * u, "font-size": 0.5 * u, "text-anchor": "middle",
        "font-weight": "bold", fill: STAR_LINE }, base, ARMS[arm]);
    }
    S.perimeter = g.cells.filter((c) => c.pericell);
    S.neighbourIndex = g.cells.map((c) => c.neighbours.map((n) => index.get(n)));
  }

  function buildAmazonsBase(base) {
    const g = S.geometry;
    const u = g.unit;
    const size = g.size;
    const squares = el("g", { class: "squares" }, base);
    for (const sq of g.squares) {
      const light = (sq.column + sq.row) % 2 === 1;
      el("rect", { class: light ? "square light" : "square dark", "data-square": sq.name,
        x: sq.x - u / 2, y: sq.y - u / 2, width: u, height: u, fill: light ? LIGHT_SQUARE : DARK_SQUARE }, squares);
    }
    el("rect", { class: "frame", x: 0, y: 0, width: size * u, height: size * u, fill: "none",
      stroke: AMAZONS_EDGE, "stroke-width": 0.04 * u }, base);
    const files = g.squares.filter((s) => s.row === 0);
    const ranks = g.squares.filter((s) => s.column === 0);
    for (const sq of files) {
      for (const y of [size * u + 0.42 * u, -0.18 * u]) {
        el("text", { class: "coordinate", x: sq.x, y, "font-size": 0.34 * u, "text-anchor": "middle",
          fill: AMAZONS_EDGE }, base, sq.name.replace(/\d+$/, ""));
      }
    }
    for (const sq of ranks) {
      for (const x of [-0.3 * u, size * u + 0.3 * u]) {
        el("text", { class: "coordinate", x, y: sq.y + 0.12 * u, "font-size": 0.34 * u, "text-anchor": "middle",
          fill: AMAZONS_EDGE }, base, String(sq.row + 1));
      }
    }
  }

  /** Everything that depends on the position, the selection and the analysis. */
  function render() {
    const p = S.position;
    if (!p || !S.geometry || !layers) return;
    const root = svg();
    root.dataset.moves = String(p.moves.length);
    root.dataset.toMove = p.to_move;
    root.dataset.over = p.over ? "1" : "0";
    document.body.dataset.moves = String(p.moves.length);
    document.body.dataset.game = p.game;
    for (const layer of Object.values(layers)) if (layer !== layers.base) layer.replaceChildren();
    if (p.game === "star") renderStar();
    else renderAmazons();
    renderAnalysisMarks();
    renderPanel();
  }

  // -- *Star ------------------------------------------------------------------------
  function starGroups() {
    // Groups of stones (connected through the geometry's neighbours); a star
    // occupies at least two pericells, any other group is dead (docs/rules-star.md).
    const g = S.geometry;
    const colourOf = new Array(g.cells.length).fill("empty");
    for (const c of ["black", "white"]) for (const label of S.position.board[c]) colourOf[S.index.get(label)] = c;
    const group = new Array(g.cells.length).fill(-1);
    const groups = [];
    g.cells.forEach((_, start) => {
      if (colourOf[start] === "empty" || group[start] >= 0) return;
      const members = [start];
      group[start] = groups.length;
      for (let k = 0; k < members.length; k++) {
        for (const n of S.neighbourIndex[members[k]]) {
          if (group[n] < 0 && colourOf[n] === colourOf[start]) {
            group[n] = groups.length;
            members.push(n);
          }
        }
      }
      const peris = members.filter((i) => g.cells[i].pericell).length;
      groups.push({ colour: colourOf[start], cells: members, star: peris >= 2 });
    });
    return { colourOf, group, groups };
  }

  function periBand(cell, inner, outer) {
    const g = S.geometry;
    const rings = g.size;
    const per = S.perimeter;
    const i = per.indexOf(cell);
    const prev = per[(i - 1 + per.length) % per.length];
    const next = per[(i + 1) % per.length];
    const mid = (a, b) => [(a.x + b.x) / 2, (a.y + b.y) / 2];
    const path = [mid(prev, cell), [cell.x, cell.y], mid(cell, next)];
    const scaled = (pt, radius) => [pt[0] * radius / rings, pt[1] * radius / rings];
    return path.map((pt) => scaled(pt, rings + inner)).concat(path.slice().reverse().map((pt) => scaled(pt, rings + outer)));
  }

  function renderStar() {
    const g = S.geometry;
    const p = S.position;
    const u = g.unit;
    const rings = g.size;
    const { colourOf, group, groups } = starGroups();
    const overlay = $("score-overlay").checked;
    const score = p.score;
    const ownerOfPeri = new Map();
    if (score) {
      score.stars.forEach((star, k) => {
        for (const label of star.pericells) ownerOfPeri.set(label, { colour: star.colour, star: k });
      });
    }
    const deadCells = new Set();
    groups.forEach((grp) => { if (!grp.star) grp.cells.forEach((i) => deadCells.add(i)); });
    const svgRoot = svg();
    svgRoot.dataset.deadGroups = String(groups.filter((grp) => !grp.star).length);

    // Each star: its owned pericells as a band outside the perimeter, and bonds between its stones.
    if (overlay && score) {
      score.stars.forEach((star, k) => {
        const part = el("g", { class: `star ${star.colour}`, id: `star-${k + 1}`, "data-star": k,
          "data-peris": star.pericells.length, "data-quarks": star.quarks }, layers.score);
        for (const label of star.pericells) {
          const cell = g.cells[S.index.get(label)];
          el("polygon", { class: `owned ${star.colour}`, "data-cell": label, fill: STONE_FILL[star.colour],
            stroke: STONE_EDGE[star.colour], "stroke-width": 0.03 * u, points: pointsAttr(periBand(cell, 0.42, 0.78)) }, part);
        }
        // The star's stones: the group holding its first occupied pericell.
        const stones = groups.find((grp) => grp.star && grp.colour === star.colour &&
          star.pericells.some((label) => group[S.index.get(label)] >= 0 && groups[group[S.index.get(label)]] === grp));
        if (!stones) return;
        const inStar = new Set(stones.cells);
        for (const i of stones.cells) {
          for (const n of S.neighbourIndex[i]) {
            if (n > i && inStar.has(n)) {
              const a = g.cells[i], b = g.cells[n];
              el("line", { class: "bond", x1: a.x, y1: a.y, x2: b.x, y2: b.y,
                stroke: star.colour === "black" ? STONE_FILL.black : "#9a9a9a", "stroke-width": 0.16 * u,
                "stroke-linecap": "round" }, part);
            }
          }
        }
      });
    }

    // Quarks: a diamond beyond each corner pericell, filled by its owner.
    for (const cell of g.cells) {
      if (!cell.corner) continue;
      const length = Math.hypot(cell.x, cell.y);
      const cx = (cell.x / length) * (rings + 0.62) * u;
      const cy = (cell.y / length) * (rings + 0.62) * u;
      const r = 0.2 * u;
      const owner = overlay ? ownerOfPeri.get(cell.label) : null;
      el("polygon", { class: owner ? `quark ${owner.colour}` : "quark", "data-cell": cell.label,
        "data-owner": owner ? owner.colour : "none",
        fill: owner ? STONE_FILL[owner.colour] : STAR_BACKGROUND, stroke: owner ? STONE_EDGE[owner.colour] : STAR_LINE,
        "stroke-width": 0.04 * u, points: pointsAttr([[cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy]]) }, layers.score);
    }

    // Cells and stones.
    const humanTurn = canPlayNow();
    const legal = new Set(S.legal[p.to_move] || []);
    const markDead = overlay;
    g.cells.forEach((cell, i) => {
      const colour = colourOf[i];
      if (colour === "empty") {
        const playable = humanTurn && legal.has(cell.label);
        el("circle", { class: `cell${cell.corner ? " corner" : ""}${playable ? " legal" : ""}`,
          "data-cell": cell.label, "data-colour": "empty", cx: cell.x, cy: cell.y,
          r: (cell.pericell ? 0.33 : 0.3) * u * (rings >= 7 ? 1.12 : 1), fill: STAR_BACKGROUND, stroke: STAR_LINE,
          "stroke-width": 0.035 * u },
        layers.pieces);
      } else {
        const dead = markDead && deadCells.has(i);
        el("circle", { class: `stone ${colour}${dead ? " dead" : ""}`, "data-cell": cell.label, "data-colour": colour,
          "data-dead": dead ? "1" : "0", cx: cell.x, cy: cell.y, r: 0.37 * u, fill: STONE_FILL[colour],
          stroke: STONE_EDGE[colour], "stroke-width": 0.04 * u, opacity: dead ? (p.over ? 0.45 : 0.6) : null }, layers.pieces);
        if (dead) {
          const d = 0.2 * u;
          el("path", { class: "dead-mark", "data-cell": cell.label,
            d: `M${fmt(cell.x - d)},${fmt(cell.y - d)}L${fmt(cell.x + d)},${fmt(cell.y + d)}M${fmt(cell.x - d)},${fmt(cell.y + d)}L${fmt(cell.x + d)},${fmt(cell.y - d)}`,
            stroke: LAST_MOVE, "stroke-width": (p.over ? 0.06 : 0.045) * u, opacity: p.over ? 1 : 0.6 }, layers.pieces);
        }
      }
      {
        // The pictures' labels (0.27 of the ring spacing); on the big boards,
        // where the board is drawn small, a little larger and held to a fixed
        // width (whatever the font), so that they stay readable inside the cells.
        const big = rings >= 7;
        el("text", { class: "label", x: cell.x, y: cell.y + (big ? 0.11 : 0.1) * u, "font-size": (big ? 0.32 : 0.27) * u,
          textLength: big ? 0.56 * u : null, lengthAdjust: big ? "spacingAndGlyphs" : null,
          "text-anchor": "middle", fill: big && colour === "empty" ? "#4e3b25" : TEXT_ON[colour],
          "pointer-events": "none" }, layers.pieces, cell.label);
      }
    });

    // The last move, and the hovered legal cell as a faint stone of the side to move.
    const last = p.moves[p.moves.length - 1];
    if (last && last[1] !== "pass") {
      const cell = g.cells[S.index.get(last[1])];
      el("circle", { class: "last-move", "data-cell": cell.label, cx: cell.x, cy: cell.y, r: 0.44 * u, fill: "none",
        stroke: LAST_MOVE, "stroke-width": 0.07 * u }, layers.marks);
    }
    drawStarGhost();
  }

  /** The hovered legal cell shows a faint stone of the side to move. */
  function drawStarGhost() {
    const g = S.geometry;
    const p = S.position;
    layers.selection.replaceChildren();
    if (!canPlayNow() || !S.hover || !(S.legal[p.to_move] || []).includes(S.hover)) return;
    const cell = g.cells[S.index.get(S.hover)];
    el("circle", { class: "ghost", cx: cell.x, cy: cell.y, r: 0.37 * g.unit, fill: STONE_FILL[p.to_move],
      stroke: STONE_EDGE[p.to_move], "stroke-width": 0.04 * g.unit, opacity: 0.45, "pointer-events": "none" },
    layers.selection);
  }

  // -- Amazons ----------------------------------------------------------------------
  function squareOf(name) {
    return S.geometry.squares[S.index.get(name)];
  }

  function crown(x, y, size) {
    const p = (a, b) => `${fmt(x + a * size)},${fmt(y + b * size)}`;
    return `M${p(0.22, 0.74)}L${p(0.78, 0.74)}L${p(0.86, 0.28)}L${p(0.66, 0.5)}L${p(0.5, 0.16)}` +
      `L${p(0.34, 0.5)}L${p(0.14, 0.28)}Z` +
      `M${p(0.22, 0.79)}L${p(0.78, 0.79)}L${p(0.78, 0.87)}L${p(0.22, 0.87)}Z`;
  }

  function amazonsContents() {
    const contents = new Map();
    const b = S.position.board;
    for (const name of b.white) contents.set(name, "white");
    for (const name of b.black) contents.set(name, "black");
    for (const name of b.arrows) contents.set(name, "arrow");
    return contents;
  }

  function renderAmazons() {
    const g = S.geometry;
    const p = S.position;
    const u = g.unit;
    const contents = amazonsContents();
    const sel = S.selection;
    const last = p.moves[p.moves.length - 1];
    const lastParts = last ? last[1].split(/[-/]/) : null;

    // Territory once the score is known (a settled or finished game): regions only one colour reaches.
    if ($("score-overlay").checked && p.score) {
      const regions = regionOwners(contents);
      for (const [name, owner] of regions) {
        const sq = squareOf(name);
        // A territory mark, as Go programs mark points: a small square of the owner's colour.
        el("rect", { class: `territory ${owner}`, "data-square": name, x: sq.x - 0.2 * u, y: sq.y - 0.2 * u,
          width: 0.4 * u, height: 0.4 * u, fill: STONE_FILL[owner], stroke: STONE_EDGE[owner], "stroke-width": 0.03 * u,
          "pointer-events": "none" }, layers.score);
      }
    }

    if (lastParts) {
      [[lastParts[0], "from", 0.55], [lastParts[1], "to", 0.8]].forEach(([name, kind, opacity]) => {
        const sq = squareOf(name);
        el("rect", { class: `last-move ${kind}`, "data-square": name, x: sq.x - u / 2, y: sq.y - u / 2, width: u, height: u,
          fill: HIGHLIGHT, opacity }, layers.score);
      });
    }
    if (sel) {
      for (const [name, kind] of [[sel.from, "from"], [sel.to, "to"]]) {
        if (!name) continue;
        const sq = squareOf(name);
        el("rect", { class: `selected ${kind}`, "data-square": name, x: sq.x - u / 2, y: sq.y - u / 2, width: u, height: u,
          fill: MARK_GREEN, opacity: 0.45 }, layers.score);
      }
    }

    const moving = sel && sel.to ? contents.get(sel.from) : null;
    for (const sq of g.squares) {
      const what = contents.get(sq.name);
      if (moving && sq.name === sel.from) {
        // The amazon being moved: its old square is drawn faint (it counts as empty for the arrow).
        el("path", { class: `amazon ${what} origin`, "data-square": sq.name, "data-colour": what,
          d: crown(sq.x - u / 2, sq.y - u / 2, u), fill: STONE_FILL[what], stroke: STONE_EDGE[what], opacity: 0.3,
          "stroke-width": 0.045 * u, "stroke-linejoin": "round" }, layers.pieces);
      } else if (what === "arrow") {
        el("circle", { class: "arrow", "data-square": sq.name, "data-colour": "arrow", cx: sq.x, cy: sq.y, r: 0.3 * u,
          fill: ARROW_FILL, stroke: ARROW_EDGE, "stroke-width": 0.04 * u }, layers.pieces);
      } else if (what === "black" || what === "white") {
        el("path", { class: `amazon ${what}`, "data-square": sq.name, "data-colour": what,
          d: crown(sq.x - u / 2, sq.y - u / 2, u), fill: STONE_FILL[what], stroke: STONE_EDGE[what],
          "stroke-width": 0.045 * u, "stroke-linejoin": "round" }, layers.pieces);
      }
    }
    if (moving) {
      const sq = squareOf(sel.to);
      el("path", { class: `amazon ${moving} moving`, "data-square": sel.to, d: crown(sq.x - u / 2, sq.y - u / 2, u),
        fill: STONE_FILL[moving], stroke: STONE_EDGE[moving], "stroke-width": 0.045 * u, "stroke-linejoin": "round",
        "pointer-events": "none" }, layers.pieces);
    }

    if (lastParts) {
      const [a, b, c] = lastParts.map(squareOf);
      const faded = sel ? 0.3 : 0.75; // a move being built comes first
      flight(a, b, MARK_BLUE, false, "amazon-path", layers.marks, faded);
      flight(b, c, MARK_BLUE, true, "arrow-flight", layers.marks, faded);
      el("circle", { class: "last-move shot", "data-square": lastParts[2], cx: c.x, cy: c.y, r: 0.4 * u, fill: "none",
        stroke: LAST_MOVE, "stroke-width": 0.06 * u }, layers.marks);
    }

    // The legal choices of the step being built, and nothing else.
    if (canPlayNow()) {
      const stage = !sel ? "amazon" : !sel.to ? "destination" : "arrow";
      const targets = !sel ? movableAmazons() : sel.targets;
      svg().dataset.stage = stage;
      for (const name of targets) {
        const sq = squareOf(name);
        if (stage === "amazon") {
          el("rect", { class: "target amazon-choice", "data-square": name, "data-stage": stage, x: sq.x - u / 2 + 0.05 * u,
            y: sq.y - u / 2 + 0.05 * u, width: 0.9 * u, height: 0.9 * u, rx: 0.1 * u, fill: "none", stroke: MARK_GREEN,
            "stroke-width": 0.07 * u }, layers.selection);
        } else if (stage === "destination") {
          el("circle", { class: "target", "data-square": name, "data-stage": stage, cx: sq.x, cy: sq.y, r: 0.17 * u,
            fill: MARK_GREEN, opacity: 0.85, stroke: "#ffffff", "stroke-width": 0.03 * u }, layers.selection);
        } else {
          el("circle", { class: "target", "data-square": name, "data-stage": stage, cx: sq.x, cy: sq.y, r: 0.22 * u,
            fill: "none", stroke: ARROW_FILL, "stroke-width": 0.07 * u, "stroke-dasharray": `${fmt(0.12 * u)},${fmt(0.08 * u)}` },
          layers.selection);
        }
      }
      if (S.hover && targets.includes(S.hover) && stage !== "amazon") {
        const sq = squareOf(S.hover);
        if (stage === "destination") {
          const c = contents.get(sel.from);
          el("path", { class: "ghost", d: crown(sq.x - u / 2, sq.y - u / 2, u), fill: STONE_FILL[c], stroke: STONE_EDGE[c],
            opacity: 0.45, "stroke-width": 0.045 * u, "pointer-events": "none" }, layers.selection);
        } else {
          el("circle", { class: "ghost", cx: sq.x, cy: sq.y, r: 0.3 * u, fill: ARROW_FILL, opacity: 0.5,
            "pointer-events": "none" }, layers.selection);
        }
      }
      if (sel && sel.to) flight(squareOf(sel.from), squareOf(sel.to), MARK_GREEN, false, "amazon-path building", layers.selection);
    } else {
      svg().dataset.stage = "none";
    }
  }

  function flight(a, b, colour, dashed, kind, parent, opacity = 0.75) {
    const u = S.geometry.unit;
    return el("line", { class: `move-line ${kind}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour,
      "stroke-width": 0.07 * u, "stroke-linecap": "round", opacity,
      "stroke-dasharray": dashed ? `${fmt(0.12 * u)},${fmt(0.1 * u)}` : null, "pointer-events": "none" }, parent);
  }

  function movableAmazons() {
    const seen = [];
    for (const move of S.legal[S.position.to_move] || []) {
      const from = move.split("-")[0];
      if (!seen.includes(from)) seen.push(from);
    }
    return seen;
  }

  /** Squares by column/row, for the territory computations below. */
  function squareGrid() {
    const g = S.geometry;
    const grid = [];
    for (const sq of g.squares) {
      grid[sq.column] = grid[sq.column] || [];
      grid[sq.column][sq.row] = sq.name;
    }
    return grid;
  }

  const DIRECTIONS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]];

  /** Empty squares of regions (8-connected, arrows and amazons block) whose
   * neighbouring amazons are all of one colour: the score's territory. */
  function regionOwners(contents) {
    const g = S.geometry;
    const grid = squareGrid();
    const size = g.size;
    const seen = new Set();
    const owners = new Map();
    for (const sq of g.squares) {
      if (contents.get(sq.name) || seen.has(sq.name)) continue;
      const region = [sq];
      seen.add(sq.name);
      const touching = new Set();
      for (let k = 0; k < region.length; k++) {
        const here = region[k];
        for (const [dc, dr] of DIRECTIONS) {
          const c = here.column + dc, r = here.row + dr;
          if (c < 0 || r < 0 || c >= size || r >= size) continue;
          const name = grid[c][r];
          const what = contents.get(name);
          if (what === "black" || what === "white") touching.add(what);
          else if (!what && !seen.has(name)) {
            seen.add(name);
            region.push(squareOf(name));
          }
        }
      }
      if (touching.size === 1) {
        const owner = [...touching][0];
        for (const s of region) owners.set(s.name, owner);
      }
    }
    return owners;
  }

  /** Queen-move distance territory (what kata-analyze's `territory` counts): each
   * empty square reached by one colour's amazons in fewer queen moves than the other's. */
  function queenTerritory(contents) {
    const g = S.geometry;
    const grid = squareGrid();
    const size = g.size;
    const distance = {};
    for (const colour of ["black", "white"]) {
      const dist = new Map();
      let frontier = [];
      for (const [name, what] of contents) if (what === colour) frontier.push(squareOf(name));
      let d = 0;
      while (frontier.length) {
        d++;
        const next = [];
        for (const sq of frontier) {
          for (const [dc, dr] of DIRECTIONS) {
            let c = sq.column + dc, r = sq.row + dr;
            while (c >= 0 && r >= 0 && c < size && r < size && !contents.get(grid[c][r])) {
              const name = grid[c][r];
              if (!dist.has(name)) {
                dist.set(name, d);
                next.push(squareOf(name));
              }
              c += dc;
              r += dr;
            }
          }
        }
        frontier = next;
      }
      distance[colour] = dist;
    }
    const owners = new Map();
    for (const sq of g.squares) {
      if (contents.get(sq.name)) continue;
      const b = distance.black.get(sq.name) ?? Infinity;
      const w = distance.white.get(sq.name) ?? Infinity;
      if (b < w) owners.set(sq.name, "black");
      else if (w < b) owners.set(sq.name, "white");
    }
    return owners;
  }

  // -- analysis ---------------------------------------------------------------------
  /** One kata-analyze report line: the moves (most visited first) and the game's own field. */
  function parseReport(line) {
    const words = splitWords(line);
    const moves = [];
    let ownership = null;
    let territory = null;
    let current = null;
    let key = null;
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if (word === "info") {
        current = { pv: [] };
        moves.push(current);
        key = null;
      } else if (word === "ownership") {
        ownership = words.slice(i + 1).map(Number);
        break;
      } else if (word === "territory") {
        territory = [Number(words[i + 1]), Number(words[i + 2])];
        i += 2;
        current = null;
      } else if (current && word === "pv") {
        key = "pv";
      } else if (current && key === "pv" && !["move", "visits", "winrate", "order", "utility"].includes(word)) {
        current.pv.push(word);
      } else if (current && i + 1 < words.length) {
        key = null;
        const value = words[i + 1];
        current[word] = ["move"].includes(word) ? value : Number(value);
        i++;
      }
    }
    return { moves, ownership, territory };
  }

  function onStreamLine(line) {
    const stream = streams[0];
    if (!stream) return;
    stream.opened();
    if (!line.startsWith("info")) return;
    const report = parseReport(line);
    if (!report.moves.length) return;
    report.colour = stream.colour;
    report.key = stream.key;
    S.analysis.report = report;
    if (S.analysis.wanted || S.thinking) {
      renderAnalysisMarks();
      renderAnalysisPanel();
    }
  }

  function startAnalysis() {
    const p = S.position;
    if (!p || p.over || S.analysis.running || S.thinking || S.busy) return;
    S.analysis.running = true;
    renderAnalysisPanel();
    enqueue(async () => {
      await waitForStreamGate();
      const stream = newStream();
      const request = post(`/gtp?session=${S.session}`, `kata-analyze ${p.to_move} ${ANALYSIS_INTERVAL}\n`);
      // The next command stops the analysis, so it is sent only once the
      // analysis has surely started: its first line has come (or it ended).
      streamGate = Promise.race([stream.gate, request.catch(() => {})]);
      request.catch((error) => {
        const index = streams.indexOf(stream);
        if (index >= 0) streams.splice(index, 1);
        showMessage(`analysis: ${error.message}`);
      }).finally(() => {
        S.analysis.running = false;
        // Stopped by something other than the page (the session's other client): start again.
        setTimeout(afterSettled, 0);
      });
    });
  }

  function stopAnalysis() {
    // Any line stops a running analysis; this one also refreshes the picture.
    if (S.analysis.running) busy(refresh);
  }

  function afterSettled() {
    if (S.busy || S.thinking) return;
    if (S.analysis.wanted && !S.analysis.running && S.position && !S.position.over) startAnalysis();
  }

  function renderAnalysisMarks() {
    if (!layers) return;
    layers.analysis.replaceChildren();
    layers.ownership.replaceChildren();
    const report = S.analysis.report;
    const p = S.position;
    const fresh = report && p && report.key === positionKey(p);
    const show = fresh && (S.analysis.wanted || S.thinking);
    svg().dataset.analysis = show ? "1" : "0";
    delete svg().dataset.territoryBlack;
    delete svg().dataset.territoryWhite;
    if (!show) return;
    const g = S.geometry;
    const u = g.unit;
    if ($("ownership-toggle").checked && S.analysis.wanted) renderOwnership(report);
    const shown = g.game === "star" ? BEST_MOVES_SHOWN : 3; // Amazons moves are long lines: fewer
    const best = report.moves.slice(0, shown).filter((m) => m.move && m.move !== "pass" && m.move !== "resign");
    // The best last, so that it lies on top.
    best.map((m, k) => [m, k]).reverse().forEach(([m, k]) => {
      if (g.game === "star") {
        const cell = g.cells[S.index.get(m.move)];
        if (!cell) return;
        el("circle", { class: "best", "data-cell": m.move, "data-order": k, "data-visits": m.visits, cx: cell.x, cy: cell.y,
          r: 0.45 * u, fill: "none", stroke: MARK_BLUE, "stroke-width": (k === 0 ? 0.1 : 0.07) * u,
          "stroke-dasharray": k === 0 ? null : fmt(0.15 * u), "pointer-events": "none" }, layers.analysis);
        badge(cell.x, cell.y - 0.62 * u, m, k);
      } else {
        const [a, b, c] = m.move.split(/[-/]/).map(squareOf);
        if (!a || !b || !c) return;
        // As the pictures mark a move: the amazon's path, the arrow's flight
        // (dashed) and the arrow's square; in the analysis blue, with the visits.
        const opacity = k === 0 ? 1 : 0.6;
        const group = el("g", { class: "best", "data-move": m.move, "data-order": k, "data-visits": m.visits, opacity }, layers.analysis);
        flight(a, b, MARK_BLUE, false, "marked", group, 0.9);
        flight(b, c, MARK_BLUE, true, "marked", group, 0.9);
        el("circle", { cx: b.x, cy: b.y, r: 0.12 * u, fill: MARK_BLUE, "pointer-events": "none" }, group);
        el("rect", { class: "mark", "data-square": c.name, x: c.x - 0.42 * u, y: c.y - 0.42 * u, width: 0.84 * u, height: 0.84 * u,
          rx: 0.06 * u, fill: "none", stroke: MARK_BLUE, "stroke-width": 0.07 * u, "pointer-events": "none" }, group);
        badge(c.x, c.y - 0.42 * u, m, k, group);
      }
    });
  }

  function badge(x, y, m, k, parent = layers.analysis) {
    const u = S.geometry.unit;
    const text = compact(m.visits);
    const w = Math.max(0.62, 0.19 * text.length + 0.2) * u;
    const h = 0.36 * u;
    const group = el("g", { class: "badge", "pointer-events": "none" }, parent);
    el("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 0.12 * u, fill: k === 0 ? MARK_BLUE : "#3b5b92",
      stroke: "#ffffff", "stroke-width": 0.03 * u }, group);
    el("text", { x, y: y + 0.1 * u, "font-size": 0.27 * u, "text-anchor": "middle", fill: "#ffffff", "font-weight": "bold" },
      group, text);
  }

  function compact(n) {
    if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;
    if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
    if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
    return String(n);
  }

  function renderOwnership(report) {
    const g = S.geometry;
    const u = g.unit;
    const me = report.colour;
    const them = me === "black" ? "white" : "black";
    if (g.game === "star" && report.ownership) {
      // One value per pericell, board order: +1 always the analysed colour's, -1 always the other's.
      S.perimeter.forEach((cell, k) => {
        const value = report.ownership[k];
        if (value === undefined) return;
        const owner = value >= 0 ? me : them;
        const strength = Math.min(1, Math.abs(value));
        // A halo under the pericell, in the colour expected to own it, as strong as the expectation.
        el("circle", { class: `ownership ${owner}`, "data-cell": cell.label, "data-ownership": fmt(value),
          "pointer-events": "none", cx: cell.x, cy: cell.y, r: 0.5 * u, fill: STONE_FILL[owner],
          stroke: STONE_EDGE[owner], "stroke-width": 0.02 * u, opacity: 0.1 + 0.8 * strength }, layers.ownership);
      });
    } else if (g.game === "amazons") {
      const owners = queenTerritory(amazonsContents());
      const counts = { black: 0, white: 0 };
      for (const [name, owner] of owners) {
        counts[owner]++;
        const sq = squareOf(name);
        // The expected territory: a lighter, smaller mark than the score's.
        el("rect", { class: `ownership ${owner}`, "data-square": name, x: sq.x - 0.15 * u, y: sq.y - 0.15 * u, width: 0.3 * u,
          height: 0.3 * u, fill: STONE_FILL[owner], opacity: 0.75, stroke: STONE_EDGE[owner], "stroke-width": 0.03 * u,
          "pointer-events": "none" }, layers.ownership);
      }
      svg().dataset.territoryBlack = String(counts.black);
      svg().dataset.territoryWhite = String(counts.white);
    }
  }

  function renderAnalysisPanel() {
    const box = $("analysis");
    const report = S.analysis.report;
    const p = S.position;
    const fresh = report && p && report.key === positionKey(p);
    box.hidden = !(S.analysis.wanted || S.thinking);
    box.dataset.source = S.thinking ? "engine" : "analysis";
    const body = $("best-moves").tBodies[0];
    body.replaceChildren();
    $("ownership-label").textContent = p && p.game === "amazons" ? "Territory overlay (queen distance)" : "Ownership overlay (pericells)";
    if (!fresh) {
      $("winrate").textContent = p && p.over ? "The game is over." : S.thinking ? "The engine is searching\u2026" : "Analysing\u2026";
      for (const key of ["winrate", "colour", "territoryMine", "territoryTheirs"]) delete $("winrate").dataset[key];
      $("winbar-black").style.width = "50%";
      return;
    }
    const top = report.moves[0];
    const mine = top.winrate;
    const black = report.colour === "black" ? mine : 1 - mine;
    $("winbar-black").style.width = `${(black * 100).toFixed(1)}%`;
    const visits = report.moves.reduce((sum, m) => sum + (m.visits || 0), 0);
    let text = `${S.thinking ? "The engine's search" : "Win rate"}: Black ${(black * 100).toFixed(1)}%, ` +
      `White ${((1 - black) * 100).toFixed(1)}% (${visits.toLocaleString("en")} visits, ${title(report.colour)}'s moves below).`;
    if (report.territory) {
      const t = { [report.colour]: report.territory[0], [otherColour(report.colour)]: report.territory[1] };
      text += ` Expected territory: White ${t.white}, Black ${t.black}.`;
    }
    $("winrate").textContent = text;
    $("winrate").dataset.winrate = String(mine);
    $("winrate").dataset.colour = report.colour;
    if (report.territory) {
      $("winrate").dataset.territoryMine = String(report.territory[0]);
      $("winrate").dataset.territoryTheirs = String(report.territory[1]);
    }
    report.moves.slice(0, 8).forEach((m, k) => {
      const row = document.createElement("tr");
      row.dataset.move = m.move;
      row.dataset.visits = String(m.visits);
      if (k === 0) row.className = "top";
      for (const value of [m.move, String(m.visits), `${((m.winrate || 0) * 100).toFixed(1)}%`, m.pv.slice(1, 6).join(" ")]) {
        const cell = document.createElement("td");
        cell.textContent = value;
        row.appendChild(cell);
      }
      body.appendChild(row);
    });
  }

  // -- the side panel -------------------------------------------------------------
  function title(colour) {
    return colour ? colour[0].toUpperCase() + colour.slice(1) : "";
  }

  function otherColour(colour) {
    return colour === "black" ? "white" : "black";
  }

  function renderPanel() {
    const p = S.position;
    // Whose turn.
    const toMove = $("to-move");
    if (p.over) {
      toMove.textContent = `Game over: ${p.score ? describeResult(p.score.result) : "no result"}.`;
    } else {
      const who = engineSide(p.to_move) ? "engine" : "you";
      toMove.innerHTML = "";
      const dot = document.createElement("span");
      dot.className = `dot ${p.to_move}`;
      toMove.append(dot, ` ${title(p.to_move)} to move (${who}), move ${p.moves.length + 1}.`);
    }
    toMove.dataset.toMove = p.to_move;
    $("move-input").placeholder = p.game === "star" ? "e.g. S43 or pass" : "e.g. d1-d7/g7 or d1";
    $("move-help").textContent = p.game === "star"
      ? "A cell (*40, S43, R98) or pass; Enter plays it."
      : "from-to/arrow, such as d1-d7/g7. Typing d1 or d1-d7 highlights the choices on the board.";
    renderScore();
    renderMoveList();
    renderAnalysisPanel();
    updateControls();
  }

  /** `B+17` in words: who wins (or, mid-game, leads) and by how much. */
  function describeResult(result, over = true) {
    if (result === "0") return over ? "a tie (0)" : "even (0)";
    const m = /^([BW])\+(.*)$/.exec(result);
    if (!m) return result;
    const who = m[1] === "B" ? "Black" : "White";
    const verb = over ? "wins" : "leads";
    return m[2] === "0" ? `${who} ${verb} on quarks (${result})` : `${who} ${verb} by ${m[2]} (${result})`;
  }

  function renderScore() {
    const p = S.position;
    const box = $("score");
    box.replaceChildren();
    const score = p.score;
    box.dataset.result = score ? score.result : "";
    if (p.game === "star") {
      const result = document.createElement("p");
      result.className = "result";
      result.textContent = `${p.over ? "Final score" : "Score now"}: ${describeResult(score.result, p.over)}` +
        (score.komi ? `, komi ${score.komi}` : "");
      box.appendChild(result);
      const table = document.createElement("table");
      table.className = "score-table";
      const headers = [["", ""], ["stars", "stars"], ["peris", "pericells owned"], ["quarks", "quarks owned"],
        ["q.peri", "quark peri: 1 with three or more quarks"], ["conv.", "conventional score"],
        ["simpl.", "simplified score"], ["Schm.", "Schmittberger score"]];
      const head = table.createTHead().insertRow();
      for (const [text, long] of headers) {
        const th = document.createElement("th");
        th.textContent = text;
        if (long) th.title = long;
        head.appendChild(th);
      }
      const body = table.createTBody();
      for (const colour of ["black", "white"]) {
        const c = score[colour];
        const row = body.insertRow();
        row.dataset.colour = colour;
        const name = document.createElement("th");
        name.innerHTML = `<span class="dot ${colour}"></span> ${title(colour)}`;
        row.appendChild(name);
        const schmitt = c.schmittberger > 0 ? `+${num(c.schmittberger)}` : num(c.schmittberger);
        const values = { stars: c.stars, peris: c.peris, quarks: c.quarks, quark_peri: c.quark_peri,
          conventional: num(c.conventional), simplified: num(c.simplified), schmittberger: schmitt };
        for (const [key, value] of Object.entries(values)) {
          const cell = row.insertCell();
          cell.dataset.key = key;
          cell.textContent = String(value);
        }
      }
      box.appendChild(table);
      const stars = document.createElement("ul");
      stars.className = "star-list";
      score.stars.forEach((star, k) => {
        const item = document.createElement("li");
        item.tabIndex = 0;
        item.dataset.star = String(k);
        item.innerHTML = `<span class="dot ${star.colour}"></span> `;
        item.append(`${title(star.colour)} star: ${plural(star.pericells.length, "peri")}, ${plural(star.quarks, "quark")}`);
        const highlight = (on) => {
          const group = document.getElementById(`star-${k + 1}`);
          if (group) group.classList.toggle("highlight", on);
        };
        item.addEventListener("mouseenter", () => highlight(true));
        item.addEventListener("mouseleave", () => highlight(false));
        item.addEventListener("focus", () => highlight(true));
        item.addEventListener("blur", () => highlight(false));
        stars.appendChild(item);
      });
      if (!score.stars.length) {
        const item = document.createElement("li");
        item.className = "none";
        item.textContent = "No stars yet (a star is a group on at least two pericells).";
        stars.appendChild(item);
      }
      box.appendChild(stars);
      const dead = document.createElement("p");
      dead.className = "dead-groups";
      dead.dataset.deadGroups = String(score.dead_groups);
      dead.textContent = score.dead_groups
        ? `${plural(score.dead_groups, "dead group")} (not stars${p.over ? "" : " yet"}): crossed out, their cells count as open.`
        : "No dead groups.";
      box.appendChild(dead);
    } else {
      const result = document.createElement("p");
      result.className = "result";
      if (score) {
        result.textContent = `${p.over ? "Final result" : "Settled"}: ${describeResult(score.result)}` +
          `${score.margin_exact ? "" : " (at least)"}.`;
        box.appendChild(result);
        const detail = document.createElement("p");
        detail.className = "detail";
        detail.textContent = `Territory: white ${score.territory.white}, black ${score.territory.black}. ` +
          "The margin is the moves the winner has left when the loser runs out.";
        box.appendChild(detail);
      } else {
        result.textContent = "Not decided yet: the amazons are not separated.";
        box.appendChild(result);
        const detail = document.createElement("p");
        detail.className = "detail";
        detail.textContent = "The score is known once no region holds amazons of both colours. " +
          "Live analysis estimates the territory meanwhile.";
        box.appendChild(detail);
      }
    }
  }

  function num(value) {
    return Number.isInteger(value) ? String(value) : String(Math.round(value * 1e6) / 1e6);
  }

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? "" : "s"}`;
  }

  function renderMoveList() {
    const list = $("move-list");
    const p = S.position;
    list.replaceChildren();
    const all = p.moves.map((m) => [m, false]).concat(S.future.map((m) => [m, true]));
    list.dataset.current = String(p.moves.length);
    list.dataset.total = String(all.length);
    const start = document.createElement("li");
    start.className = "start";
    start.appendChild(moveButton("Start", 0, p.moves.length === 0));
    list.appendChild(start);
    all.forEach(([move, future], i) => {
      const item = document.createElement("li");
      item.className = future ? "future" : "played";
      item.dataset.colour = move[0];
      item.dataset.move = move[1];
      const button = moveButton("", i + 1, i + 1 === p.moves.length);
      button.innerHTML = `<span class="number">${i + 1}.</span> <span class="dot ${move[0]}"></span> <span class="text"></span>`;
      button.querySelector(".text").textContent = move[1];
      item.appendChild(button);
      list.appendChild(item);
    });
    const current = list.querySelector(".current");
    if (current) {
      const box = list.getBoundingClientRect();
      const r = current.getBoundingClientRect();
      if (r.top < box.top || r.bottom > box.bottom) list.scrollTop += r.top - box.top - box.height / 2;
    }
  }

  function moveButton(text, index, current) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `move${current ? " current" : ""}`;
    button.dataset.index = String(index);
    button.textContent = text;
    if (current) button.setAttribute("aria-current", "step");
    button.addEventListener("click", () => goTo(index));
    return button;
  }

  function updateControls() {
    const p = S.position;
    const idle = S.busy === 0 && !S.thinking;
    const ready = Boolean(p) && idle;
    const total = p ? p.moves.length + S.future.length : 0;
    $("thinking").hidden = !S.thinking;
    $("new-game").disabled = !S.session;
    $("engine-move").disabled = !ready || p.over;
    const passLegal = ready && !p.over && (S.legal[p.to_move] || []).includes("pass");
    $("pass").hidden = Boolean(p) && p.game !== "star";
    $("pass").disabled = !passLegal || !canPlayNow();
    $("undo").disabled = !ready || p.moves.length === 0;
    $("move-input").disabled = !p || p.over || S.thinking;
    $("move-submit").disabled = !canPlayNowOrBusy();
    $("nav-first").disabled = !ready || p.moves.length === 0;
    $("nav-back").disabled = !ready || p.moves.length === 0;
    $("nav-forward").disabled = !ready || p.moves.length >= total;
    $("nav-last").disabled = !ready || p.moves.length >= total;
    $("save").disabled = !ready;
    $("load").disabled = !ready;
    $("record-load").disabled = !ready;
    $("record-show").disabled = !ready;
    $("cancel").hidden = !S.selection;
    svg().classList.toggle("playable", Boolean(p) && canPlayNow());
  }

  function canPlayNowOrBusy() {
    return S.position && !S.position.over && !S.thinking && !engineSideBlocking();
  }

  function setStatus(text) {
    $("status").textContent = text;
  }

  function showMessage(text) {
    const box = $("message");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(S.messageTimer);
    S.messageTimer = setTimeout(clearMessage, 8000);
  }

  function clearMessage() {
    $("message").hidden = true;
  }

  function syncSelects() {
    const p = S.position;
    $("game-select").value = p.game;
    const sizes = $("size-select");
    const wanted = SIZES[p.game].map(String);
    if ([...sizes.options].map((o) => o.value).join() !== wanted.join()) {
      sizes.replaceChildren(...SIZES[p.game].map((n) => {
        const option = document.createElement("option");
        option.value = String(n);
        option.textContent = p.game === "star" ? `${n} rings` : `${n}\u00d7${n}`;
        return option;
      }));
    }
    sizes.value = String(p.size);
    setStatus(p.game === "star" ? `*Star, ${p.size} rings` : `Amazons, ${p.size}\u00d7${p.size}`);
  }

  // -- actions ----------------------------------------------------------------------
  async function newGame(game, size) {
    S.epoch++;
    if (S.thinking) interrupt();
    S.future = [];
    S.selection = null;
    clearMessage();
    await busy(async () => {
      const lines = [];
      if (game !== S.position.game) lines.push(`game ${game}`);
      lines.push(`boardsize ${size}`);
      await gtp(lines);
      await refresh();
    });
    maybeEngineMove();
  }

  async function undo() {
    if (!S.position || !S.position.moves.length) return;
    S.selection = null;
    await busy(async () => {
      // Take back to the last position where a person was to move (one ply
      // when people play both sides or the engine plays both).
      const moves = S.position.moves;
      let count = 1;
      if (S.engine !== "both" && S.engine !== "none") {
        while (count < moves.length && engineSide(moves[moves.length - count][0])) count++;
      }
      await gtp(new Array(count).fill("undo"));
      S.future = [];
      await refresh();
    });
  }

  /** Show the position after `index` moves of the line (played moves, then the future). */
  async function goTo(index) {
    const p = S.position;
    if (!p || S.busy || S.thinking) return;
    const current = p.moves.length;
    const line = p.moves.concat(S.future);
    index = Math.max(0, Math.min(index, line.length));
    if (index === current) return;
    S.selection = null;
    await busy(async () => {
      if (index < current) {
        await gtp(new Array(current - index).fill("undo"));
        S.future = p.moves.slice(index).concat(S.future);
      } else {
        const forward = S.future.slice(0, index - current);
        await gtp(forward.map(([colour, move]) => `play ${colour} ${move}`));
        S.future = S.future.slice(index - current);
      }
      await refresh();
    });
  }

  async function setTime(value) {
    await busy(async () => {
      if (value === "default") {
        await gtp([`stargtp-param playouts ${S.defaults.playouts}`, `stargtp-param seconds ${S.defaults.seconds}`]);
      } else {
        await gtp(["stargtp-param playouts none", `stargtp-param seconds ${value}`]);
      }
    });
  }

  async function saveRecord() {
    await busy(async () => {
      const record = await one("printsgf");
      const text = record.endsWith("\n") ? record : `${record}\n`;
      $("record-text").value = text;
      const blob = new Blob([text], { type: "application/x-go-sgf" });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      const stamp = new Date().toISOString().slice(0, 16).replace(/[T:]/g, "-");
      link.download = `stargtp-${S.position.game}-${S.position.size}-${stamp}.sgf`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
      setStatus(`Saved the record (${S.position.moves.length} moves).`);
    });
  }

  async function loadRecord(text) {
    S.epoch++;
    S.selection = null;
    // One line, as stargtp-loadsgf-text takes it. GTP reads `#` as the start of
    // a comment, so a `#` in the record's text (a comment, a player's name,
    // which the engine does not keep) travels as a full-width number sign.
    const line = text.replace(/[\r\n\t]+/g, " ").replace(/#/g, "\uff03").trim();
    if (!line) return showMessage("The record is empty.");
    await busy(async () => {
      const [answer] = await gtp([`stargtp-loadsgf-text ${line}`], true);
      if (!answer.ok) {
        showMessage(`Cannot load the record: ${answer.text}`);
        return;
      }
      S.future = [];
      await refresh();
      clearMessage();
      setStatus(`Loaded a record: ${S.position.moves.length} moves. The engine waits: press Engine move to let it play.`);
    });
  }

  // -- input --------------------------------------------------------------------------
  function userPoint(event) {
    const root = svg();
    const matrix = root.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return [point.x, point.y];
  }

  /** The point (cell label or square name) under a click, or null. */
  function hit(event) {
    const g = S.geometry;
    const xy = userPoint(event);
    if (!g || !xy) return null;
    const [x, y] = xy;
    if (g.game === "star") {
      let best = null;
      let bestDistance = Infinity;
      for (const cell of g.cells) {
        const d = Math.hypot(cell.x - x, cell.y - y);
        if (d < bestDistance) { bestDistance = d; best = cell; }
      }
      return best && bestDistance <= g.unit * 0.5 ? best.label : null;
    }
    const u = g.unit;
    for (const sq of g.squares) {
      if (Math.abs(sq.x - x) <= u / 2 && Math.abs(sq.y - y) <= u / 2) return sq.name;
    }
    return null;
  }

  async function onBoardClick(event) {
    if (!canPlayNow()) return;
    const point = hit(event);
    if (!point) return;
    if (S.geometry.game === "star") {
      if ((S.legal[S.position.to_move] || []).includes(point)) await playMove(point);
      return;
    }
    await amazonsClick(point);
  }

  /** The three clicks of an Amazons move: an amazon, its destination, its arrow.
   * Another amazon of the mover re-chooses; a click elsewhere cancels. */
  async function amazonsClick(square) {
    const sel = S.selection;
    if (!sel || (!sel.to && square !== sel.from && !sel.targets.includes(square))) {
      if (movableAmazons().includes(square)) await chooseAmazon(square);
      else if (sel) { S.selection = null; render(); }
      return;
    }
    if (square === sel.from && !sel.to) { S.selection = null; render(); return; }
    if (!sel.to) {
      await chooseDestination(square);
      return;
    }
    if (sel.targets.includes(square)) {
      const move = `${sel.from}-${sel.to}/${square}`;
      S.selection = null;
      await playMove(move);
    } else if (square === sel.to) {
      // Back to choosing the destination.
      await chooseAmazon(sel.from);
    } else if (movableAmazons().includes(square)) {
      await chooseAmazon(square);
    } else {
      S.selection = null;
      render();
    }
  }

  async function chooseAmazon(square) {
    const colour = S.position.to_move;
    await busy(async () => {
      const targets = splitWords(await one(`all_legal ${colour} ${square}`));
      S.selection = { from: square, to: null, targets };
      render();
    });
  }

  async function chooseDestination(square) {
    const colour = S.position.to_move;
    const from = S.selection.from;
    await busy(async () => {
      const targets = splitWords(await one(`all_legal ${colour} ${from}-${square}`));
      S.selection = { from, to: square, targets };
      render();
    });
  }

  function onBoardMove(event) {
    const point = canPlayNow() ? hit(event) : null;
    if (point !== S.hover) {
      S.hover = point;
      if (S.position && S.position.game === "star") drawStarGhost();
      else render();
    }
  }

  /** Typing: the move box plays on Enter; Amazons parts typed so far drive the selection. */
  async function onMoveTyped() {
    const p = S.position;
    if (!p || p.game !== "amazons" || !canPlayNow()) return;
    const text = $("move-input").value.trim().toLowerCase();
    const parts = text.split(/[^a-z0-9]+/).filter(Boolean);
    const complete = /^[a-z]\d+$/;
    if (!parts.every((part) => complete.test(part))) return;
    const sel = S.selection;
    if (parts.length === 1 && movableAmazons().includes(parts[0])) {
      if (!sel || sel.from !== parts[0] || sel.to) await chooseAmazon(parts[0]);
    } else if (parts.length === 2 && movableAmazons().includes(parts[0])) {
      if (!sel || sel.from !== parts[0] || sel.to !== parts[1]) {
        const targets = splitWords(await one(`all_legal ${p.to_move} ${parts[0]}`));
        if (targets.includes(parts[1])) {
          S.selection = { from: parts[0], to: null, targets };
          await chooseDestination(parts[1]);
        }
      }
    } else if (parts.length === 0 && sel) {
      S.selection = null;
      render();
    }
  }

  async function onMoveSubmitted(event) {
    event.preventDefault();
    const input = $("move-input");
    const text = input.value.trim();
    if (!text || !canPlayNowOrBusy()) return;
    await chain; // let a pending selection lookup finish
    if (!canPlayNow()) return;
    input.value = "";
    S.selection = null;
    await playMove(text);
    input.focus();
  }

  function bindControls() {
    const board = svg();
    board.addEventListener("click", onBoardClick);
    board.addEventListener("mousemove", onBoardMove);
    board.addEventListener("mouseleave", () => { S.hover = null; if (S.position) render(); });
    $("new-game").addEventListener("click", () => newGame($("game-select").value, Number($("size-select").value)));
    $("game-select").addEventListener("change", () => {
      const game = $("game-select").value;
      const size = DEFAULT_SIZE[game];
      S.engine = SECOND_PLAYER[game];
      $("engine-select").value = S.engine;
      newGame(game, size);
    });
    $("size-select").addEventListener("change", () => newGame(S.position.game, Number($("size-select").value)));
    $("engine-select").addEventListener("change", () => {
      S.engine = $("engine-select").value;
      render();
      if (!S.busy) maybeEngineMove();
    });
    $("time-select").addEventListener("change", () => setTime($("time-select").value));
    $("engine-move").addEventListener("click", () => { S.future = []; engineMove(); });
    $("move-now").addEventListener("click", interrupt);
    $("pass").addEventListener("click", () => { if (canPlayNow()) playMove("pass"); });
    $("undo").addEventListener("click", undo);
    $("cancel").addEventListener("click", () => { S.selection = null; render(); });
    $("move-form").addEventListener("submit", onMoveSubmitted);
    $("move-input").addEventListener("input", onMoveTyped);
    $("score-overlay").addEventListener("change", render);
    $("ownership-toggle").addEventListener("change", renderAnalysisMarks);
    $("analysis-toggle").addEventListener("change", () => {
      S.analysis.wanted = $("analysis-toggle").checked;
      document.body.dataset.analysis = S.analysis.wanted ? "1" : "0";
      if (S.analysis.wanted) afterSettled();
      else stopAnalysis();
      renderAnalysisPanel();
      renderAnalysisMarks();
    });
    $("nav-first").addEventListener("click", () => goTo(0));
    $("nav-back").addEventListener("click", () => goTo(S.position.moves.length - 1));
    $("nav-forward").addEventListener("click", () => goTo(S.position.moves.length + 1));
    $("nav-last").addEventListener("click", () => goTo(S.position.moves.length + S.future.length));
    $("save").addEventListener("click", saveRecord);
    $("load").addEventListener("click", () => $("load-file").click());
    $("load-file").addEventListener("change", async () => {
      const file = $("load-file").files[0];
      if (file) await loadRecord(await file.text());
      $("load-file").value = "";
    });
    $("record-show").addEventListener("click", async () => {
      await busy(async () => { $("record-text").value = await one("printsgf"); });
    });
    $("record-load").addEventListener("click", () => loadRecord($("record-text").value));
    document.addEventListener("keydown", (event) => {
      const typing = event.target instanceof HTMLElement &&
        (event.target.closest("input, textarea, select") !== null);
      if (event.key === "Escape" && S.selection) {
        S.selection = null;
        if (typing && event.target.id === "move-input") event.target.value = "";
        render();
        return;
      }
      if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
      const p = S.position;
      if (!p) return;
      const moves = { ArrowLeft: p.moves.length - 1, ArrowRight: p.moves.length + 1, Home: 0,
        End: p.moves.length + S.future.length };
      if (event.key in moves) {
        event.preventDefault();
        goTo(moves[event.key]);
      } else if (event.key === "m" || event.key === "/") {
        event.preventDefault();
        $("move-input").focus();
      }
    });
  }

  // For tests and for the curious, in the console: the page's state.
  window.stargtpState = () => ({
    busy: S.busy, thinking: S.thinking, future: S.future.length, engine: S.engine, epoch: S.epoch,
    analysis: { wanted: S.analysis.wanted, running: S.analysis.running, report: S.analysis.report !== null },
    streams: streams.map((stream) => ({ colour: stream.colour, position: stream.key })),
    selection: S.selection, moves: S.position ? S.position.moves.length : null,
  });

  document.addEventListener("DOMContentLoaded", start);
})();
