// The bridge: talking to `stargtp gui`'s HTTP bridge (POST /session, POST
// /gtp, GET /events, POST /close; docs/protocol.md, "HTTP bridge"). Commands
// go one request at a time, in order; a streaming command's lines arrive as
// server-sent events, one `end` event after each, and belong to the oldest
// stream not yet ended.

export class GtpError extends Error {
  constructor(command, text) {
    super(text);
    this.command = command;
  }
}

/** Split a bridge answer into responses: {ok, text} each ('=' or '?', a blank line ends one). */
export function parseResponses(text) {
  const responses = [];
  for (const block of text.split("\n\n")) {
    if (!block.trim()) continue;
    const status = block[0];
    let rest = block.slice(1).replace(/^\d+/, ""); // an id (the page sends none)
    rest = rest.startsWith(" ") || rest.startsWith("\n") ? rest.slice(1) : rest;
    responses.push({ ok: status === "=", text: rest });
  }
  return responses;
}

export function splitWords(text) {
  return text.split(/\s+/).filter(Boolean);
}

export class Bridge {
  constructor() {
    this.session = null;
    this.chain = Promise.resolve();
    this.gate = null; // resolves once a running stream may be stopped by the next line
    this.streams = []; // streaming commands sent and not yet ended, oldest first
    this.onLine = () => {}; // (stream, line): a line of the oldest stream
    this.searches = []; // searches queued or under way, oldest first: {request, done, kicked}
  }

  async open() {
    const answer = JSON.parse(await this.post("/session", ""));
    this.session = answer.session;
    window.addEventListener("pagehide", () => {
      if (this.session) navigator.sendBeacon(`/close?session=${this.session}`, "");
    });
    const source = new EventSource(`/events?session=${this.session}`);
    source.addEventListener("info", (event) => {
      const stream = this.streams[0];
      if (!stream) return;
      stream.opened();
      this.onLine(stream, event.data);
    });
    source.addEventListener("end", () => {
      const stream = this.streams.shift();
      if (stream) stream.opened();
    });
    await new Promise((resolve) => {
      source.addEventListener("open", resolve, { once: true });
      setTimeout(resolve, 5000); // go on without it: the page still plays, without live lines
    });
    return this.session;
  }

  async post(path, body) {
    const response = await fetch(path, {
      method: "POST", body, headers: { "Content-Type": "text/plain; charset=utf-8" }, cache: "no-store",
    });
    const text = await response.text();
    if (response.status === 404 && path.startsWith("/gtp")) {
      throw new Error("The engine session has ended (idle for too long, or the server restarted): reload the page.");
    }
    if (!response.ok) throw new Error(`${response.status}: ${text.trim() || response.statusText}`);
    return text;
  }

  /** Run a task after every one queued before it. */
  enqueue(task) {
    const result = this.chain.then(task);
    this.chain = result.catch(() => {});
    return result;
  }

  async waitForGate() {
    if (this.gate) {
      const gate = this.gate;
      this.gate = null;
      await gate;
    }
  }

  /** Run command lines in order; the responses. Throws on an HTTP error, or on '?' unless lenient. */
  gtp(lines, lenient = false) {
    return this.enqueue(async () => {
      await this.waitForGate();
      const responses = parseResponses(await this.post(`/gtp?session=${this.session}`, lines.join("\n") + "\n"));
      if (!lenient) {
        responses.forEach((r, i) => {
          if (!r.ok) throw new GtpError(lines[i], r.text);
        });
      }
      return responses;
    });
  }

  async one(line) {
    return (await this.gtp([line]))[0].text;
  }

  /** Send a streaming command; `about` describes what its lines are about.
   * A search (`wait`): its responses, once it ends; the queue waits for it.
   * An analysis: at once, {request}; the next command waits only until the
   * analysis has surely started (its first line came, or it ended), since
   * that command stops it. */
  stream(line, about, wait) {
    const search = wait ? this.queueSearch() : null;
    return this.enqueue(async () => {
      try {
        await this.waitForGate();
        let opened;
        const started = new Promise((resolve) => { opened = resolve; });
        const stream = { ...about, opened: () => opened() };
        this.streams.push(stream);
        const request = this.post(`/gtp?session=${this.session}`, `${line}\n`);
        request.catch(() => {
          const index = this.streams.indexOf(stream);
          if (index >= 0) this.streams.splice(index, 1);
        });
        if (wait) return parseResponses(await this.searching(search, request));
        this.gate = Promise.race([started, request.catch(() => {})]);
        return { request };
      } finally {
        if (search) this.finish(search);
      }
    });
  }

  /** A search (genmove, reg_genmove, stargtp-evaluate): the text of its
   * answer ('?' throws); interrupt() makes it answer now. */
  search(line) {
    const search = this.queueSearch();
    return this.enqueue(async () => {
      try {
        await this.waitForGate();
        const [response] = parseResponses(await this.searching(search, this.post(`/gtp?session=${this.session}`, `${line}\n`)));
        if (!response.ok) throw new GtpError(line, response.text);
        return response.text;
      } finally {
        this.finish(search);
      }
    });
  }

  /** A search enters the queue: from now on interrupt() may aim at it. */
  queueSearch() {
    const search = { request: null, done: false, kicked: false };
    this.searches.push(search);
    return search;
  }

  finish(search) {
    search.done = true;
    const index = this.searches.indexOf(search);
    if (index >= 0) this.searches.splice(index, 1);
  }

  /** Wait for a search's request (an interrupt asked for before it went is sent now). */
  async searching(search, request) {
    search.request = request;
    if (search.kicked) this.pester(search);
    try {
      return await request;
    } finally {
      search.done = true;
    }
  }

  /** `# interrupt`, outside the queue: the search under way, or else the
   * next one already queued (Engine move and Move now pressed together),
   * answers at once with its best move so far. With no search under way or
   * queued (the last one has just answered) it does nothing: an interrupt is
   * never kept for a search asked for later. The line is sent once the
   * search's request has gone, then every second until the search answers:
   * over HTTP a later POST may reach the server before the one carrying the
   * search, and an interrupt that finds nothing running is only a comment
   * (docs/gui.md, "Move now"). */
  interrupt() {
    if (!this.session) return;
    const search = this.searches.find((s) => !s.done);
    if (search) this.kick(search);
  }

  kick(search) {
    if (search.kicked) return;
    search.kicked = true;
    if (search.request) this.pester(search);
  }

  pester(search) {
    const send = () => {
      if (search.done) return;
      this.post(`/gtp?session=${this.session}`, "# interrupt\n").catch(() => {});
      setTimeout(send, 1000);
    };
    send();
  }
}
