// The game tree: every line tried from the start of the game (or from a
// set-up), the node shown on the board, and the move list drawn as a tree.
// The session always holds the line from the root to the current node;
// `goTo` brings it to another node with `undo` and `play`. Nothing here knows
// a game: a move is the text `play` takes, compared as the server wrote it.
//
// A node: {id, colour: "black"|"white"|null (root), move: string|null,
//          props: {PROP: [string]}, children: Node[], parent: Node|null}.
// The first child is the main line. The root also has `setup` (null or
// {to_move, KIND: [points]...}, as stargtp-sgf-tree gives it).

import { S, title } from "./state.js";

let nextId = 1;

function makeNode(colour, move, parent, props = {}) {
  return { id: nextId++, colour, move, props, children: [], parent };
}

/** Two spellings of one move: case and separators aside ("d1-d7/g7" = "D1 d7 G7"). */
export function sameMove(a, b) {
  const plain = (text) => String(text).toLowerCase().replace(/[^a-z0-9*]/g, "");
  return plain(a) === plain(b);
}

function copyProps(props) {
  const out = {};
  for (const [key, values] of Object.entries(props || {})) out[key] = values.map(String);
  return out;
}

export class GameTree {
  constructor() {
    this.listeners = [];
    this.reset(null, null);
  }

  /** A fresh tree: the start of a game of `game` (a name) and `size`, or a set-up. */
  reset(game, size, setup = null) {
    this.game = game;
    this.size = size;
    this.header = null; // {komi, options} of a loaded record
    this.rules = null; // {NAME: true|false}: the game's options this tree is played with (stargtp-rules), or null
    this.root = makeNode(null, null, null);
    this.root.setup = setup;
    this.current = this.root;
    this.tip = this.root; // the deepest node of the line last shown: where "forward" leads
    this.dirty = false; // changed since it was last saved or loaded
    this.changed(false);
  }

  /** Tell the listeners (the move list, the stored copy); `edit`: the tree itself changed. */
  changed(edit = true) {
    if (edit) this.dirty = true;
    for (const listener of this.listeners) listener(this);
  }

  onChange(listener) {
    this.listeners.push(listener);
  }

  /** [root, ...] following the first children. */
  mainLine() {
    const line = [this.root];
    for (let n = this.root; n.children.length;) {
      n = n.children[0];
      line.push(n);
    }
    return line;
  }

  /** The nodes from the root to `node`. */
  line(node) {
    const out = [];
    for (let n = node; n; n = n.parent) out.push(n);
    return out.reverse();
  }

  /** [[colour, move], ...] from the root to `node`. */
  moves(node) {
    return this.line(node).slice(1).map((n) => [n.colour, n.move]);
  }

  /** The child of `node` with that move: the one there, or a new branch. */
  add(node, colour, move) {
    let child = node.children.find((c) => c.colour === colour && sameMove(c.move, move));
    if (!child) {
      child = makeNode(colour, move, node);
      node.children.push(child);
      this.dirty = true;
    }
    return child;
  }

  /** The node the session's moves lead to, adding what is new; it becomes the current node. */
  follow(moves) {
    let node = this.root;
    for (const [colour, move] of moves) {
      node = this.add(node, colour, move);
      node.move = move; // the session's own spelling of it
    }
    this.select(node);
    this.changed(false);
    return node;
  }

  /** After an undo from `from` back to the current node: forget the moves
   * taken back when they ended their line with no other branch among them
   * (a take-back); otherwise they stay, as after stepping back. */
  takeBack(from) {
    if (from === this.current || from.children.length || !this.contains(this.current, from)) return false;
    let n = from;
    while (n.parent !== this.current) {
      if (n.parent.children.length !== 1) return false;
      n = n.parent;
    }
    return this.remove(n);
  }

  /** Make `node` the current one (the session must be there already: see goTo). */
  select(node) {
    this.current = node;
    if (!this.contains(node, this.tip)) this.tip = node;
  }

  /** Whether `node` is `ancestor` or lies after it. */
  contains(ancestor, node) {
    for (let n = node; n; n = n.parent) if (n === ancestor) return true;
    return false;
  }

  /** One move forward from `node`: toward the line last shown, else the main line. */
  next(node) {
    if (node !== this.tip && this.contains(node, this.tip)) {
      let n = this.tip;
      while (n.parent !== node) n = n.parent;
      return n;
    }
    return node.children[0] || null;
  }

  /** The nodes after `node` that "forward" steps through, to the end of the line. */
  future(node) {
    const out = [];
    for (let n = this.next(node); n; n = this.next(n)) out.push(n);
    return out;
  }

  /** The previous (`step` -1) or next (+1) variation at `node`: its sibling, or null. */
  sibling(node, step) {
    if (!node.parent) return null;
    const siblings = node.parent.children;
    return siblings[siblings.indexOf(node) + step] || null;
  }

  /** The last node of the line through `node`. */
  end(node) {
    const after = this.future(node);
    return after.length ? after[after.length - 1] : node;
  }

  isMainLine(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  depth(node) {
    return this.line(node).length - 1;
  }

  /** Make the line through `node` the main line (each node first among its siblings). */
  promote(node) {
    if (this.isMainLine(node)) return;
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      siblings.splice(siblings.indexOf(n), 1);
      siblings.unshift(n);
    }
    this.changed();
  }

  /** Delete `node` and everything after it. The current node must not be in it (goTo first). */
  remove(node) {
    if (!node.parent || this.contains(node, this.current)) return false;
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    if (this.contains(node, this.tip)) this.tip = this.current;
    this.changed();
    return true;
  }

  find(id) {
    const stack = [this.root];
    while (stack.length) {
      const n = stack.pop();
      if (n.id === id) return n;
      stack.push(...n.children);
    }
    return null;
  }

  /** The child indexes from the root to `node`, and back. */
  path(node) {
    return this.line(node).slice(1).map((n) => n.parent.children.indexOf(n));
  }

  at(path) {
    let node = this.root;
    for (const k of path || []) {
      if (!node.children[k]) break;
      node = node.children[k];
    }
    return node;
  }

  // -- the JSON of stargtp-sgf-tree / stargtp-sgf-write --------------------------

  /** A record's tree (stargtp-sgf-tree's answer) as the page's tree; current: the end of its main line. */
  load(record) {
    this.reset(record.game, record.size, record.setup || null);
    this.header = { komi: record.komi, options: record.options || {} };
    this.root.props = copyProps(record.properties);
    const build = (parent, children) => {
      for (const child of children || []) {
        const node = makeNode(child.colour, child.move, parent, copyProps(child.properties));
        parent.children.push(node);
        build(node, child.children);
      }
    };
    build(this.root, record.children);
    const line = this.mainLine();
    this.current = line[line.length - 1];
    this.tip = this.current;
    this.dirty = false;
    this.changed(false);
  }

  /** The nodes after `node`, in stargtp-sgf-write's shape. */
  childrenJSON(node) {
    return node.children.map((n) => ({
      colour: n.colour, move: n.move, properties: copyProps(n.props), children: this.childrenJSON(n),
    }));
  }

  /** What the page keeps in localStorage: the tree and where it is. */
  snapshot() {
    return {
      game: this.game, size: this.size, header: this.header, rules: this.rules, setup: this.root.setup,
      properties: copyProps(this.root.props), children: this.childrenJSON(this.root),
      current: this.path(this.current), tip: this.path(this.tip), dirty: this.dirty,
    };
  }

  /** The tree of a snapshot (the session is not touched: the caller rebuilds it). */
  restore(data) {
    this.load({ game: data.game, size: data.size, komi: null, options: {}, properties: data.properties,
      setup: data.setup, children: data.children });
    this.header = data.header || null;
    this.rules = data.rules || null;
    this.tip = this.at(data.tip);
    this.current = this.at(data.current);
    if (!this.contains(this.current, this.tip)) this.tip = this.current;
    this.dirty = Boolean(data.dirty);
    this.changed(false);
  }
}

/** The one tree of the page. */
export const tree = new GameTree();

// -- bringing the session to a node -------------------------------------------------

let driver = null;

/** app.js gives the means to talk to the session and to the person:
 * {gtp(lines, lenient), refresh(), busy(action), render(), maybeEngineMove(),
 *  status(text), message(text), clearMessage(), fresh()}; fresh(): a new game
 * tree starts (no result, the clocks afresh, the engine told the time control). */
export function connect(means) {
  driver = means;
}

/** Those means, for the page's other modules (records.js, setup.js). */
export function session() {
  return driver;
}

/** The commands that take the session from the line to `from` to the line to `to`. */
export function stepsBetween(from, to) {
  const a = tree.line(from);
  const b = tree.line(to);
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return new Array(a.length - k).fill("undo").concat(b.slice(k).map((n) => `play ${n.colour} ${n.move}`));
}

/** Show `node`: the session goes there (undo back to the common part, play
 * forward), then the page draws it. False when the page is busy. */
export async function goTo(node) {
  if (!driver || !node || S.busy || S.thinking || node === tree.current) return false;
  S.chosen = [];
  await driver.busy(async () => {
    const lines = stepsBetween(tree.current, node);
    try {
      if (lines.length) await driver.gtp(lines);
      tree.select(node);
    } finally {
      await driver.refresh(); // where the session is, even after a refusal
    }
  });
  return tree.current === node;
}

/** Make the current line the main line. */
export function promoteCurrent() {
  if (!S.busy && !S.thinking) tree.promote(tree.current);
}

/** The Moves card's tree buttons: usable now? */
export function updateTreeControls(ready) {
  const promote = document.getElementById("promote");
  const remove = document.getElementById("delete-branch");
  if (!promote || !remove) return;
  promote.disabled = !ready || tree.isMainLine(tree.current);
  remove.disabled = !ready || !tree.current.parent;
  for (const [id, step] of [["nav-up", -1], ["nav-down", 1]]) {
    const button = document.getElementById(id);
    if (button) button.disabled = !ready || !tree.sibling(tree.current, step);
  }
}

/** Delete the current node and what follows it; the board goes to the move before. */
export async function deleteCurrent() {
  const node = tree.current;
  if (!node.parent) return;
  if (await goTo(node.parent)) tree.remove(node);
}

// -- the move list --------------------------------------------------------------------

function moveButton(node, index) {
  const button = document.createElement("button");
  button.type = "button";
  const current = node === tree.current;
  button.className = `move${current ? " current" : ""}`;
  button.dataset.node = String(node.id);
  if (index !== null) button.dataset.index = String(index);
  if (current) button.setAttribute("aria-current", "step");
  if (!node.parent) {
    button.textContent = "Start";
    return button;
  }
  button.innerHTML = '<span class="number"></span> <span class="dot"></span> <span class="text"></span>';
  button.querySelector(".number").textContent = `${tree.depth(node)}.`;
  button.querySelector(".dot").classList.add(node.colour);
  button.querySelector(".text").textContent = node.move;
  button.title = `${title(node.colour)} ${node.move}` + (node.props.C ? `: ${node.props.C.join(" ")}` : "");
  if (Object.keys(node.props).length) button.classList.add("has-props");
  return button;
}

/** The move list as a tree: each line down its first children, every other
 * branch as an indented list just after the move it replaces. The line shown
 * (root to current, then forward) carries data-index = move number;
 * its played part is `li.played`, the rest `li.future`; other branches `li.branch`. */
export function renderMoveList(list) {
  list.replaceChildren();
  if (!S.position) return;
  const shown = new Set(tree.line(tree.current));
  const ahead = new Set(tree.future(tree.current));
  const itemFor = (node) => {
    const item = document.createElement("li");
    const onLine = shown.has(node) || ahead.has(node);
    item.className = !node.parent ? "start" : shown.has(node) ? "played" : ahead.has(node) ? "future" : "branch";
    if (node.parent) {
      item.dataset.colour = node.colour;
      item.dataset.move = node.move;
    }
    item.appendChild(moveButton(node, onLine ? tree.depth(node) : null));
    return item;
  };
  // Draw a line starting at `node` into `into`; alternatives go in nested lists.
  const drawLine = (node, into) => {
    into.appendChild(itemFor(node));
    for (let n = node; n.children.length;) {
      const [first, ...others] = n.children;
      into.appendChild(itemFor(first));
      for (const other of others) {
        const holder = document.createElement("li");
        holder.className = "variation";
        const nested = document.createElement("ol");
        nested.className = "move-list branch-list";
        holder.appendChild(nested);
        into.appendChild(holder);
        drawLine(other, nested);
      }
      n = first;
    }
  };
  drawLine(tree.root, list);
  list.dataset.current = String(S.position.moves.length);
  list.dataset.total = String(S.position.moves.length + ahead.size);
  list.dataset.nodes = String(list.querySelectorAll("button.move").length);
  const current = list.querySelector(".current");
  if (current) {
    const box = list.getBoundingClientRect();
    const r = current.getBoundingClientRect();
    if (r.top < box.top || r.bottom > box.bottom) list.scrollTop += r.top - box.top - box.height / 2;
  }
}
