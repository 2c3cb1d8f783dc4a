/* The Play page (replay/site/play.py): the archive's own Python engine, run in the browser on Pyodide.
 *
 * This script loads the runtime (Pyodide, served by the site itself) with a progress bar, unpacks the
 * archive's Python (replay.web.SHIPPED) into it, installs the corpus's edition, and then only draws what
 * the Python answers and sends it what the player does: a click on a container and then on another, a
 * number from the list, a typed line, deal, undo, redo.  It decides no rule: every move goes to
 * replay.web.bridge, which judges it with the engine as `replay validate` does.  The hint is the strong
 * player's (replay.web.hint), searched in a Web Worker (play-worker.js) with a Pyodide of its own, so the
 * page stays responsive; its moves are played through the bridge like any other.  The deal's seed,
 * variants and readings are kept in the address, to share it.  Nothing is loaded from any other site.
 */

// the browser's own fetch, taken before anything replaces it (load() counts what Pyodide fetches through it)
const nativeFetch = window.fetch.bind(window);

const box = document.querySelector(".replay-play");

if (box) main(box);

function main(box) {
  const data = box.dataset;
  const $ = (sel) => box.querySelector(sel);
  const form = $(".rp-setup");
  const loading = $(".rp-loading");
  const bar = loading.querySelector("progress");
  const barText = loading.querySelector("span");
  const game = $(".rp-game");
  const tableBox = $(".rp-table");
  const errorBox = $(".rp-error");
  const refusal = $(".rp-refusal");
  const total = Number(data.bytes) || 1;
  const storeKey = "replay-play:" + data.game;
  let bridge = null;
  let state = null;
  let selected = null;
  let lastWidth = 0;
  let loaded = 0;
  let worker = null;  // the strong player's worker, started at the first hint
  let searching = null;  // {id, log}: the search under way
  let found = null;  // the last hint's answer, for the log it was asked for
  let showing = null;  // the timer of a win being shown
  let searchId = 0;

  // ------------------------------------------------------------------ no WebAssembly: say so, stop

  if (!hasWasm()) {
    loading.hidden = true;
    $(".rp-nowasm").hidden = false;
    return;
  }

  preselect();
  offerSaved();
  load().then(() => {
    loading.hidden = true;
    for (const b of form.querySelectorAll("button")) b.disabled = false;
    deal(seedFromForm());
    performance.mark("replay-play:first-list");
  }).catch((e) => {
    loading.hidden = true;
    fail("The rule engine could not be started: " + message(e));
  });

  // ------------------------------------------------------------------ loading, with its progress

  function mb(n) { return (n / 1e6).toFixed(1) + " MB"; }

  function progress(n) {
    loaded += n;
    bar.value = Math.min(loaded, total);
    barText.textContent = "The Python runtime is loading: " + mb(Math.min(loaded, total)) + " of " + mb(total) +
      " from this site (once)…";
  }

  // The bytes are counted on a copy of each response (Response.clone), read beside it: the response itself
  // goes to Pyodide as the browser gave it, so the browser's code cache keeps the compiled WebAssembly
  // (and the runtime's script) from one visit to the next; a response rebuilt from a counting stream, or the
  // script from a blob, is compiled again at every visit (benchmarks/bench_play_page.py measured 2.55 times
  // the bare runtime's start warm that way, 1.13 this way).
  function tally(response) {
    if (!response.ok || !response.body) return response;
    const reader = response.clone().body.getReader();
    const pump = () => reader.read().then(({ done, value }) => {
      if (!done) { progress(value.byteLength); pump(); }
    }, () => {});
    pump();
    return response;
  }

  async function fetchCounted(url) {
    const r = tally(await nativeFetch(url));
    if (!r.ok) throw new Error(url + ": " + r.status + " " + r.statusText);
    return r;
  }

  // a script's bytes once it has come (a module import gives no stream to count)
  function countedScript(url) {
    const e = performance.getEntriesByName(url, "resource").pop();
    if (e) progress(e.encodedBodySize || e.decodedBodySize || 0);
  }

  async function load() {
    const runtime = new URL(data.runtime, location.href).href;
    const realFetch = window.fetch;
    // Pyodide fetches the WebAssembly, the standard library and its lock file: count them as they come
    window.fetch = (input, init) => nativeFetch(input, init).then(tally);
    try {
      const { loadPyodide } = await import(runtime + "pyodide.mjs");
      countedScript(runtime + "pyodide.mjs");
      // the runtime's own script, imported here by its address (Pyodide finds it loaded and loads it once)
      await import(runtime + "pyodide.asm.js");
      countedScript(runtime + "pyodide.asm.js");
      const own = Promise.all([fetchCounted(new URL(data.bundle, location.href)).then((r) => r.arrayBuffer()),
                               fetchCounted(new URL(data.edition, location.href)).then((r) => r.text())]);
      const pyodide = await loadPyodide({ indexURL: runtime, stdout: () => {}, stderr: (s) => console.warn(s) });
      performance.mark("replay-play:runtime");  // the benchmark reads these (benchmarks/bench_play_page.py)
      const [zip, edition] = await own;
      pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/replay-web" });
      pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/replay-web')");
      bridge = pyodide.pyimport("replay.web.bridge");
      bridge.start(edition);
      performance.mark("replay-play:engine");
      bar.value = total;
    } finally {
      window.fetch = realFetch;
    }
  }

  // ------------------------------------------------------------------ the choices

  function preselect() {
    const q = new URLSearchParams(location.search);
    const variants = q.getAll("variant");
    for (const box of form.querySelectorAll("input[name=variant]")) box.checked = variants.includes(box.value);
    for (const item of q.getAll("ruling")) {
      const at = item.indexOf("=");
      const sel = form.querySelector(`select[data-ruling="${CSS.escape(item.slice(0, at))}"]`);
      if (sel && [...sel.options].some((o) => o.value === item.slice(at + 1))) sel.value = item.slice(at + 1);
    }
    if (q.get("seed") !== null) form.seed.value = q.get("seed");
  }

  function choices() {
    const variants = [...form.querySelectorAll("input[name=variant]:checked")].map((b) => b.value);
    const rulings = {};
    for (const sel of form.querySelectorAll("select[data-ruling]")) {
      if (sel.value !== sel.dataset.default) rulings[sel.dataset.ruling] = sel.value;
    }
    return { game: data.game, variants, rulings };
  }

  function seedFromForm() {
    const v = form.seed.value.trim();
    return v === "" ? null : v;
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    deal(seedFromForm());
  });
  $(".rp-random").addEventListener("click", () => {
    form.seed.value = "";
    deal(null);
  });
  $(".rp-open").addEventListener("click", async () => {
    const file = form.file.files[0];
    const text = file ? await file.text() : form.log.value;
    if (!text.trim()) { fail("Paste a log or open a file first."); return; }
    answer(bridge.open_log(text, file ? file.name : "pasted.json", width()));
    if (state && errorBox.hidden) form.closest("details").open = false;
  });

  function deal(seed) {
    if (!bridge) return;
    const before = state && state.log;
    answer(bridge.new_game(JSON.stringify({ ...choices(), seed, width: width() })));
    if (state && state.log !== before) {  // dealt (else the words of the refusal are shown)
      form.seed.value = state.seed;
      form.closest("details").open = false;
    }
  }

  // the address says what was dealt (the seed, the variants, the readings not the default), so that the
  // deal can be shared; the rest of the address is kept
  function writeAddress() {
    if (!state || !history.replaceState) return;
    const q = new URLSearchParams(location.search);
    for (const k of ["seed", "variant", "ruling"]) q.delete(k);
    for (const v of state.variants) q.append("variant", v);
    for (const sel of form.querySelectorAll("select[data-ruling]")) {
      const reading = state.rulings[sel.dataset.ruling];
      if (reading !== undefined && reading !== sel.dataset.default) q.append("ruling", sel.dataset.ruling + "=" + reading);
    }
    if (state.seed !== null && state.seed !== undefined) q.set("seed", String(state.seed));
    const query = q.toString();
    try { history.replaceState(history.state, "", location.pathname + (query ? "?" + query : "") + location.hash); }
    catch (e) { /* an address that cannot be changed: the header still shows the seed */ }
  }

  function offerSaved() {
    let saved = null;
    try { saved = JSON.parse(localStorage.getItem(storeKey) || "null"); } catch (e) { saved = null; }
    if (!saved || !saved.log) return;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "rp-resume";
    b.disabled = true;
    b.textContent = "Resume your last game (" + saved.status + ")";
    b.addEventListener("click", () => answer(bridge.open_log(saved.log, saved.name, width())));
    form.querySelector(".rp-deal-row").appendChild(b);
  }

  // ------------------------------------------------------------------ calling the Python

  // the width the table is drawn at: its box's, less a little (the drawing is never scaled down, so its
  // text stays the size the Python gave it)
  function width() { return Math.max(160, Math.floor(tableBox.clientWidth || box.clientWidth || 360) - 2); }

  function answer(json) {
    const s = JSON.parse(json);
    errorBox.hidden = true;
    if (!s.ok) {
      fail(s.error.join("\n"), s.problem);
      return;
    }
    const moved = !state || s.log !== state.log;
    state = s;
    selected = null;
    game.hidden = false;
    lastWidth = width();
    render();
    writeAddress();
    if (moved && !showing) hintChanged();
    if (moved && s.made.length) {
      try { localStorage.setItem(storeKey, JSON.stringify({ log: s.log, name: s.name, status: s.status })); }
      catch (e) { /* private mode: nothing is kept */ }
    }
    const comment = $(".rp-comment input");
    if (moved && s.reply && !s.reply.refused.length) comment.value = "";
  }

  function call(name, ...args) {
    if (!bridge || !state) return;
    try {
      answer(bridge[name](...args));
    } catch (e) {
      fail("The rule engine failed: " + message(e));
    }
  }

  function send(line) { call("send", line); }

  function comment() { return $(".rp-comment input").value.trim(); }

  // ------------------------------------------------------------------ drawing the answer

  function render() {
    const s = state;
    const forms = s.variants.length ? s.variants.join(" + ") : "no variant";
    const readings = Object.entries(s.rulings).map(([k, v]) => k + "=" + v).join(", ");
    $(".rp-header").textContent = `${data.title} · ${forms} · seed ${s.seed ?? "?"} · ${s.status}` +
      (readings ? ` · ${readings}` : "");
    tableBox.innerHTML = s.svg;
    wirePiles();
    const verdict = $(".rp-verdict");
    verdict.textContent = s.verdict;
    verdict.className = "rp-verdict rp-" + s.outcome;
    showReply(s.reply);
    actions();
    const legal = $(".rp-legal");
    legal.replaceChildren(...s.legal.map((m) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.n = m.number;
      b.textContent = m.number + ".  " + m.short;
      b.addEventListener("click", () => call("pick", m.number, comment()));
      b.addEventListener("keydown", (ev) => {  // ↑ ↓ Home End among the legal moves
        const all = [...legal.querySelectorAll("button")];
        const at = all.indexOf(b);
        const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[ev.key];
        if (to === undefined || !all.length) return;
        ev.preventDefault();
        all[Math.max(0, Math.min(all.length - 1, to))].focus();
      });
      li.appendChild(b);
      return li;
    }));
    $(".rp-notnow").replaceChildren(...s.not_now.map((x) => {
      const li = document.createElement("li");
      li.append("no " + x.type + ": ", clauseLink(x.clause), ": " + x.reason);
      return li;
    }));
    const made = $(".rp-made");
    made.replaceChildren(...s.made.map((m) => {
      const li = document.createElement("li");
      li.textContent = m.short + (m.comment ? "  “" + m.comment + "”" : "");
      return li;
    }));
    made.scrollTop = made.scrollHeight;
  }

  function clauseLink(cid, game) {
    const a = document.createElement("a");
    a.className = "rp-clause";
    a.textContent = cid;
    a.href = data.root + "games/" + (game || state.game) + "/#" + cid;
    return a;
  }

  function showReply(reply) {
    refusal.hidden = true;
    refusal.replaceChildren();
    const note = $(".rp-verdict");
    if (!reply) return;
    if (reply.out.length) note.textContent = reply.out.join(" ") + " · " + state.verdict;
    if (!reply.refused.length) return;
    refusal.hidden = false;
    const p = reply.problem;
    if (p && p.clause) {
      const head = document.createElement("p");
      head.className = "rp-breaks";
      head.append("Refused: the move breaks ", clauseLink(p.clause, p.clause_game), ": " + p.message);
      refusal.appendChild(head);
      for (const [cls, label, text, lang] of [["rp-diplomatic", "The text", p.diplomatic, p.language],
                                              ["rp-translation", "In English", p.translation, "en"]]) {
        if (!text) continue;
        const q = document.createElement("blockquote");
        q.className = cls;
        q.lang = lang || "";
        const l = document.createElement("span");
        l.className = "rp-layer";
        l.textContent = label;
        q.append(l, " “" + text + "”");
        refusal.appendChild(q);
      }
    }
    const pre = document.createElement("pre");
    pre.className = "rp-validate";
    pre.textContent = reply.refused.join("\n");
    if (p && p.clause) {
      const d = document.createElement("details");
      const sum = document.createElement("summary");
      sum.textContent = "As replay validate says it";
      d.append(sum, pre);
      refusal.appendChild(d);
    } else {
      refusal.appendChild(pre);
    }
  }

  function actions() {
    const bar = $(".rp-actions");
    const buttons = [];
    const add = (label, cls, fn, disabled, why, keys) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = cls;
      b.textContent = label;
      b.disabled = !!disabled;
      if (why) b.title = why;
      if (keys) b.setAttribute("aria-keyshortcuts", keys);
      b.addEventListener("click", fn);
      buttons.push(b);
    };
    for (const t of state.bare) {
      // a button whose move the rules do not allow now is greyed out, and says why (the clause's reason)
      const allowed = state.legal.some((m) => m.type === t);
      const no = state.not_now.find((x) => x.type === t);
      add(t === "deal" ? "Deal" : t === "redeal" ? "Redeal" : t, "rp-" + t,
          () => send(t + (comment() ? " # " + comment() : "")), !allowed,
          allowed ? "" : "no " + t + " now" + (no ? " (" + no.clause + ": " + no.reason + ")" : ""));
    }
    add("Undo", "rp-undo", () => send("undo"), !state.made.length, "", "Control+Z");
    add("Redo", "rp-redo", () => call("redo"), !state.redo, "", "Control+Y Control+Shift+Z");
    add("Comment the last move", "rp-note", () => send("note " + comment()), !state.made.length);
    add("Download the log", "rp-download", download);
    add("New game", "rp-new", () => {
      form.closest("details").open = true;
      form.scrollIntoView({ behavior: "smooth" });
    });
    bar.replaceChildren(...buttons);
  }

  function download() {
    const url = URL.createObjectURL(new Blob([state.log], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = state.name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // ------------------------------------------------------------------ the table: a click, then another

  function pileCount(name) {
    return state.legal.filter((m) => m.from === name).length;
  }

  // A pile is a button whose name begins with the words drawn in it, in their order: the pile's name, its top
  // card and how many cards it holds (what a reader hears is what is seen: WCAG 2.5.3, axe's
  // label-content-name-mismatch), then the drawing's own words (the cards beneath, the suit an empty
  // foundation takes) and the legal moves from it.  The texts that only decorate (the top card again in
  // its corner, the cards beneath it, an empty foundation's suit) are moved out of the button into a group
  // of their own beside it, drawn as before and hidden from readers (the button's name says them).
  function pileLabel(g, name) {
    const words = (g.getAttribute("aria-label") || name).split(", ");
    const extra = document.createElementNS("http://www.w3.org/2000/svg", "g");
    extra.setAttribute("class", "pile-extra");
    extra.setAttribute("aria-hidden", "true");
    for (const t of g.querySelectorAll("text.corner, text.under, text.suit")) extra.appendChild(t);
    if (extra.firstChild) g.after(extra);
    const label = g.querySelector("text.name");
    if (label) g.insertBefore(label, g.firstChild);
    const shown = [...g.querySelectorAll("text")].map((t) => t.textContent.trim()).filter(Boolean);
    const head = shown.map((w) => /^\d+$/.test(w) ? w + (w === "1" ? " card" : " cards") : w);
    const counted = head.some((w) => /^\d+ cards?$/.test(w));
    const rest = words.filter((w, i) => i > 0 && !(counted && /^\d+ cards?$/.test(w)) && !w.endsWith(" on top"));
    const n = pileCount(name);
    return head.join(", ") + ": " + rest.join(", ") + (n ? `; ${n} legal move${n > 1 ? "s" : ""} from it` : "");
  }

  function wirePiles() {
    for (const g of tableBox.querySelectorAll("g.pile[data-name]")) {
      const name = g.dataset.name;
      g.setAttribute("aria-label", pileLabel(g, name));
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.addEventListener("click", () => clicked(name));
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); clicked(name); }
        if (ev.key === "Escape") { selected = null; mark(); }
      });
    }
    mark();
  }

  function clicked(name) {
    if (selected === null) {
      selected = name;
      mark();
      return;
    }
    if (selected === name) {
      selected = null;
      mark();
      return;
    }
    const src = selected;
    selected = null;
    call("between", src, name, comment());
  }

  function mark() {
    const to = new Set(state.legal.filter((m) => m.from === selected).map((m) => m.to));
    const next = hinted();
    for (const g of tableBox.querySelectorAll("g.pile[data-name]")) {
      g.classList.toggle("hinted", !!next && (g.dataset.name === next.from || g.dataset.name === next.to));
      g.classList.toggle("selected", g.dataset.name === selected);
      g.classList.toggle("target", selected !== null && to.has(g.dataset.name));
      g.setAttribute("aria-pressed", g.dataset.name === selected ? "true" : "false");
    }
    const hint = selected === null ? "" : `${selected} chosen: now click where it goes (or ${selected} again to let go)`;
    tableBox.dataset.hint = hint;
  }

  $(".rp-line").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = ev.target.line;
    const line = input.value.trim();
    if (!line) return;
    send(line);
    if (state && !(state.reply && state.reply.refused.length)) input.value = "";
  });

  // ------------------------------------------------------------------ the strong player: a hint, a win shown

  const hintBox = $(".rp-hint");
  const hintText = $(".rp-hint-text");
  const hintGo = $(".rp-hint-go");
  const hintPlay = $(".rp-hint-play");
  const showWin = $(".rp-show");
  const stopButton = $(".rp-stop");

  function say(text) { hintText.textContent = text; }

  function busy(on) {
    stopButton.hidden = !on;
    hintGo.disabled = on;
    hintBox.setAttribute("aria-busy", on ? "true" : "false");
  }

  function startWorker() {
    const w = new Worker(new URL(data.worker, location.href), { type: "module" });
    w.postMessage({ type: "start", runtime: new URL(data.runtime, location.href).href,
                    bundle: new URL(data.bundle, location.href).href,
                    edition: new URL(data.edition, location.href).href });
    w.onmessage = (ev) => heard(ev.data);
    w.onerror = (ev) => { ev.preventDefault(); ended("The strong player could not be started: " + (ev.message || "")); };
    return w;
  }

  function askHint() {
    if (!state || searching || showing) return;
    if (state.outcome !== "unfinished") { say("The game is " + state.outcome + ": there is nothing to hint."); return; }
    if (!worker) {
      worker = startWorker();
      say("The strong player is starting (its own Python, from this site)…");
    } else {
      say("Searching from move " + state.made.length + "…");
    }
    searchId += 1;
    searching = { id: searchId, log: state.log, made: state.made.length };
    found = null;
    hintButtons();
    busy(true);
    worker.postMessage({ type: "search", id: searchId, log: state.log, seed: 0 });
  }

  function heard(m) {
    if (m.type === "ready") {
      if (searching) say("Searching from move " + searching.made + "…");
      return;
    }
    if (!searching || m.id !== searching.id) return;  // an answer to a search given up
    if (m.type === "progress") {
      say("Searching from move " + searching.made + ": " + m.positions.toLocaleString("en") + " positions, " +
          m.best + " cards home at best so far… (Stop ends it)");
      return;
    }
    const asked = searching;
    searching = null;
    busy(false);
    if (m.type === "failed") { say("The strong player failed: " + m.message); return; }
    const h = JSON.parse(m.answer);
    if (!h.ok) { say(h.error.join(" ")); return; }
    if (!state || state.log !== asked.log) { say("The table changed while it searched: ask again."); return; }
    found = { ...h, log: asked.log };
    const searched = " (the nested search, " + h.positions.toLocaleString("en") + " positions)";
    if (!h.steps.length) say("Hint: " + h.text + searched + ".");
    else say("Hint: " + h.short[0] + " — from here, " + h.text + searched + ".");
    hintButtons();
    mark();
  }

  function ended(text) {
    if (worker) worker.terminate();
    worker = null;
    searching = null;
    busy(false);
    say(text);
  }

  // the table changed (a move, an undo, a new game): a hint for the table before it is no longer shown
  function hintChanged() {
    if (found && state && found.log !== state.log) { found = null; say(""); }
    hintButtons();
    mark();
  }

  function hintButtons() {
    const fresh = !!(found && state && found.log === state.log && found.steps.length);
    hintPlay.disabled = !fresh || !!showing;
    showWin.disabled = !(fresh && found.status === "won") || !!showing;
  }

  function hinted() {
    if (!found || !state || found.log !== state.log || !found.steps.length || showing) return null;
    return found.steps[0];
  }

  function playHint() {
    const step = hinted();
    if (!step) return;
    call("follow", JSON.stringify(step), comment());
  }

  const SHOW_MS = 500;

  function showTheWin() {
    if (!found || found.status !== "won" || !state || found.log !== state.log || showing) return;
    const steps = found.steps;
    let k = 0;
    busy(true);
    const next = () => {
      if (k >= steps.length) { stopShowing("Shown: the win in " + steps.length + " moves; " + state.status + "."); return; }
      const before = state.log;
      call("follow", JSON.stringify(steps[k]));
      if (!state || state.log === before) { stopShowing("The line stopped at its move " + (k + 1) + ": refused."); return; }
      k += 1;
      say("Showing the win: move " + k + " of " + steps.length + " (Stop halts it)…");
      showing = setTimeout(next, SHOW_MS);
    };
    showing = setTimeout(next, 0);
    hintButtons();
  }

  function stopShowing(text) {
    clearTimeout(showing);
    showing = null;
    found = null;
    busy(false);
    say(text);
    hintButtons();
    mark();
  }

  function stop() {
    if (showing) stopShowing("Stopped: the win was shown to move " + state.made.length + ".");
    else if (searching) ended("Stopped: the search was ended before it found a hint.");
  }

  hintGo.addEventListener("click", askHint);
  hintPlay.addEventListener("click", playHint);
  showWin.addEventListener("click", showTheWin);
  stopButton.addEventListener("click", stop);

  // ------------------------------------------------------------------ keys (not inside a text field)

  document.addEventListener("keydown", (ev) => {
    if (!state || game.hidden) return;
    const el = ev.target;
    if (el && el.closest && el.closest("input, textarea, select, [contenteditable]")) return;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    const ctrl = ev.ctrlKey || ev.metaKey;
    if (ctrl && !ev.altKey && key === "z" && !ev.shiftKey) { ev.preventDefault(); if (state.made.length) send("undo"); }
    else if (ctrl && !ev.altKey && (key === "y" || (key === "z" && ev.shiftKey))) { ev.preventDefault(); if (state.redo) call("redo"); }
    else if (ctrl || ev.altKey) return;
    else if (key === "m") { const b = $(".rp-legal button"); if (b) { ev.preventDefault(); b.focus(); } }
    else if (key === "t") { const g = tableBox.querySelector("g.pile[data-name]"); if (g) { ev.preventDefault(); g.focus(); } }
    else if (key === "h") { ev.preventDefault(); askHint(); }
    else if (key === "Escape" && (searching || showing)) { ev.preventDefault(); stop(); }
  });

  // ------------------------------------------------------------------ the table follows the page's width

  if (window.ResizeObserver) {
    let timer = 0;
    new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!state || !bridge) return;
        const svg = tableBox.querySelector("svg");
        const drawn = svg ? Number(svg.getAttribute("width")) : 0;
        if (drawn <= width() && Math.abs(width() - lastWidth) < 8) return;  // it fits, and little changed
        const keep = selected;
        const reply = state.reply;
        lastWidth = width();
        const s = JSON.parse(bridge.view(lastWidth));
        s.reply = reply;
        state = s;
        render();
        selected = keep;
        mark();
      }, 150);
    }).observe(tableBox);
  }

  // ------------------------------------------------------------------ problems

  function fail(text, problem) {
    errorBox.hidden = false;
    errorBox.replaceChildren();
    if (problem && problem.clause) {
      errorBox.append("Refused: breaks ", clauseLink(problem.clause, problem.clause_game), ". ");
    }
    const pre = document.createElement("pre");
    pre.textContent = text;
    errorBox.appendChild(pre);
  }

  function message(e) { return (e && e.message) ? e.message.split("\n").slice(-3).join(" ") : String(e); }
}

function hasWasm() {
  try {
    return typeof WebAssembly === "object" &&
      WebAssembly.validate(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  } catch (e) {
    return false;
  }
}
