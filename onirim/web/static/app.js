// The analysis board's page: draws what the server sends (onirim/web/server.py) and sends
// the player's clicks back.  No rule of the game is decided here: the legal moves, the
// phases, the view and every number come from the server (the engine and solver.api).
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { O: "Observatory", A: "Aquarium", G: "Garden", L: "Library" };
const SYMBOLS = { s: "Sun", m: "Moon", k: "Key" };
let board = null;            // the last /api/state answer
let analysisJob = null;      // the running analysis job's id
let hintMove = null;         // the move the last hint named
let prophecy = { discard: null, keep: [] };
let graphTimer = null;

// ------------------------------------------------------------------ server
async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res, data;
  try {
    res = await fetch(path, opts);
    data = await res.json();
  } catch (e) {
    showError("onirim: error: the server does not answer (" + e.message + ")");
    throw e;
  }
  if (!res.ok || data.error) {
    showError(data.error || ("onirim: error: status " + res.status));
    const err = new Error(data.error);
    err.shown = true;
    throw err;
  }
  return data;
}

function showError(line) {
  const box = $("error");
  box.textContent = line;
  box.hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// ------------------------------------------------------------------ cards
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}

function symbolSvg(kind) {
  const s = svgEl("svg", { viewBox: "0 0 40 40", class: "sym" });
  const white = { fill: "white", stroke: "white" };
  if (kind === "s") {                       // Sun: a disc and eight rays
    s.appendChild(svgEl("circle", { cx: 20, cy: 20, r: 8, fill: "white" }));
    for (let i = 0; i < 8; i++) {
      const a = i * Math.PI / 4;
      s.appendChild(svgEl("line", { x1: 20 + 11 * Math.cos(a), y1: 20 + 11 * Math.sin(a),
        x2: 20 + 17 * Math.cos(a), y2: 20 + 17 * Math.sin(a), stroke: "white",
        "stroke-width": 3, "stroke-linecap": "round" }));
    }
  } else if (kind === "m") {                // Moon: a crescent
    s.appendChild(svgEl("path", { d: "M28 5 A15 15 0 1 0 28 35 A20 20 0 0 1 28 5 Z",
      fill: "white" }));
  } else if (kind === "k") {                // Key: a ring, a shaft and two teeth
    s.appendChild(svgEl("circle", { cx: 12, cy: 20, r: 7, fill: "none", stroke: "white",
      "stroke-width": 4 }));
    s.appendChild(svgEl("path", { d: "M19 20 H36 M30 20 V27 M35 20 V26", fill: "none",
      stroke: "white", "stroke-width": 4, "stroke-linecap": "round" }));
  } else if (kind === "door") {             // Door: an arch with a knob
    s.appendChild(svgEl("path", { d: "M9 37 V16 A11 11 0 0 1 31 16 V37 Z", fill: "none",
      stroke: "#f5d76e", "stroke-width": 3 }));
    s.appendChild(svgEl("circle", { cx: 26, cy: 26, r: 2.2, fill: "#f5d76e" }));
  } else if (kind === "N") {                // Nightmare: a staring eye
    s.appendChild(svgEl("path", { d: "M3 20 Q20 3 37 20 Q20 37 3 20 Z", fill: "none",
      stroke: "#e0d4f7", "stroke-width": 2.5 }));
    s.appendChild(svgEl("circle", { cx: 20, cy: 20, r: 6, fill: "#e74c3c" }));
    s.appendChild(svgEl("circle", { cx: 20, cy: 20, r: 2.5, fill: "#1a1020" }));
  }
  void white;
  return s;
}

// A card code of docs/NOTATION.md drawn as a card: Os, Am, Gk, DL, N; "?" face down.
function cardEl(code, small) {
  const c = el("div", "card" + (small ? " small" : ""));
  c.dataset.code = code;
  if (code === "?") {
    c.classList.add("back");
    c.title = "a card you cannot see";
    return c;
  }
  if (code === "N") {
    c.classList.add("N");
    c.appendChild(el("span", "code", "N"));
    c.appendChild(symbolSvg("N"));
    c.appendChild(el("span", "name", "Nightmare"));
    c.title = "Nightmare";
    return c;
  }
  if (code[0] === "D") {
    c.classList.add(code[1], "door");
    c.appendChild(el("span", "code", code));
    c.appendChild(symbolSvg("door"));
    c.appendChild(el("span", "name", "Door"));
    c.title = COLOURS[code[1]] + " Door";
    return c;
  }
  c.classList.add(code[0]);
  c.appendChild(el("span", "code", code));
  c.appendChild(symbolSvg(code[1]));
  c.appendChild(el("span", "name", SYMBOLS[code[1]]));
  c.title = COLOURS[code[0]] + " " + SYMBOLS[code[1]];
  return c;
}

function cardRow(codes, small) {
  const row = el("div", "cards" + (small ? " small" : ""));
  for (const code of codes) row.appendChild(cardEl(code, small));
  if (!codes.length) row.appendChild(el("span", "note", "none"));
  return row;
}

// ------------------------------------------------------------------ the board
function zone(title, content) {
  const z = el("div", "zone");
  z.appendChild(el("div", "zone-title", title));
  z.appendChild(content);
  return z;
}

function doorsEl(doors, slots) {
  const row = el("div", "cards");
  const have = {};
  for (const d of doors) have[d[1]] = (have[d[1]] || 0) + 1;
  for (const colour of "OAGL") {
    const n = slots ? 2 : (have[colour] || 0);
    for (let i = 0; i < n; i++) {
      if (i < (have[colour] || 0)) row.appendChild(cardEl("D" + colour, true));
      else {
        const s = el("div", "card small slot " + colour);
        s.title = COLOURS[colour] + " Door still to find";
        row.appendChild(s);
      }
    }
  }
  return row;
}

function rowEl(series) {
  const row = el("div", "cards");
  if (!series.length) row.appendChild(el("span", "note", "empty"));
  for (const group of series) {
    const g = el("div", "series");
    for (const code of group) g.appendChild(cardEl(code));
    row.appendChild(g);
  }
  return row;
}

function handEl(codes, mine) {
  const row = cardRow(codes);
  if (mine) {
    for (const c of row.querySelectorAll(".card")) {
      c.classList.add("clickable");
      c.addEventListener("click", () => pickHandCard(c.dataset.code));
    }
  }
  return row;
}

function renderBoard(b) {
  board = b;
  if (!$("players").options.length) {          // the game modes the server offers
    for (const [value, name] of b.modes) {
      const o = el("option", "", name);
      o.value = value;
      $("players").appendChild(o);
    }
  }
  const f = b.fields;
  document.body.classList.toggle("analysis", b.analysis);
  const badge = $("mode-badge");
  badge.className = "badge " + (b.analysis ? "analysis" : "honest");
  badge.textContent = b.analysis
    ? "ANALYSIS MODE: undo and the deck are available; this is not honest play"
    : "Honest play: your view only";
  $("phase").textContent = b.phase_text;
  $("turn-info").textContent = b.mode + " · decision " + (b.decisions + 1);
  const area = $("board");
  area.replaceChildren();
  if (b.players === 1) {
    area.appendChild(zone("Doors " + f.doors.length + " of 8", doorsEl(f.doors, true)));
    area.appendChild(zone("Row", rowEl(b.series[0])));
    area.appendChild(zone("Hand", handEl(f.hand, !b.over)));
  } else {
    const all = f.doors0.concat(f.doors1);
    area.appendChild(zone("Doors " + all.length + " of 8", doorsEl(all, true)));
    for (const p of [0, 1]) {
      const box = el("div", "player-area" + (p === b.turn && !b.over ? " active" : ""));
      const mine = f["hand" + p].every((c) => c !== "?");
      box.appendChild(el("div", "zone-title", "Player " + p + (p === b.turn ? " (to move)" : "")
        + (mine ? "" : ": cards you cannot see")));
      box.appendChild(zone("Doors", doorsEl(f["doors" + p], false)));
      box.appendChild(zone("Row", rowEl(b.series[p])));
      box.appendChild(zone("Own cards", handEl(f["hand" + p], mine && !b.over)));
      area.appendChild(box);
    }
    area.appendChild(zone(b.phase === "draft" ? "Centre" : "Shared", handEl(f.shared, !b.over)));
  }
  const drawn = $("drawn-area");
  drawn.replaceChildren();
  if (f.drawn) drawn.appendChild(zone("Drawn", cardRow([f.drawn])));
  renderDeck(b);
  $("limbo").replaceChildren(...cardRow(f.limbo, true).childNodes);
  renderDiscard(f.discard);
  renderMoves(b);
  renderProphecy(b);
  renderLog(b);
  renderOver(b);
  if (b.graph_budget !== undefined && document.activeElement !== $("graph-budget")) {
    $("graph-budget").value = String(b.graph_budget);
  }
  document.body.dataset.decisions = String(b.decisions);   // for tests and scripts
  document.body.dataset.over = b.over ? "1" : "0";
  $("position").placeholder = "paste a position (notation or JSON) to analyse it";
}

function renderDeck(b) {
  const deck = $("deck");
  deck.replaceChildren();
  const stack = el("div", "deck-stack");
  stack.appendChild(cardEl("?", true));
  stack.appendChild(el("span", "deck-count", String(b.deck_count)));
  stack.lastChild.id = "deck-count";
  deck.appendChild(stack);
  if (b.deck_known.length && b.phase !== "prophecy") {
    deck.appendChild(el("div", "note", "known top cards (top first):"));
    deck.appendChild(cardRow(b.deck_known, true));
  }
}

function renderDiscard(pile) {
  const box = $("discard");
  box.replaceChildren();
  const counts = {};
  for (const c of pile) counts[c] = (counts[c] || 0) + 1;
  const row = el("div", "cards small");
  for (const c of Object.keys(counts).sort()) {
    const card = cardEl(c, true);
    if (counts[c] > 1) card.appendChild(el("span", "count", "×" + counts[c]));
    row.appendChild(card);
  }
  box.appendChild(el("div", "note", pile.length + " card" + (pile.length === 1 ? "" : "s")));
  box.appendChild(row);
}

function renderMoves(b) {
  const moves = $("moves");
  moves.replaceChildren();
  $("moves-area").hidden = b.over || b.phase === "prophecy";
  if (b.phase === "prophecy") return;
  for (const label of b.legal) {
    const btn = el("button", "move", label);
    btn.dataset.move = label;
    if (label === hintMove) btn.classList.add("hinted");
    btn.addEventListener("click", () => play(label));
    moves.appendChild(btn);
  }
}

function pickHandCard(code) {
  for (const btn of document.querySelectorAll("#moves button.move")) {
    const words = btn.dataset.move.split(" ");
    btn.classList.toggle("hinted", words.includes(code));
  }
}

// a prophecy: the discard first, then the kept cards in their new order, top first
function renderProphecy(b) {
  const box = $("prophecy");
  box.hidden = b.phase !== "prophecy" || b.over;
  if (box.hidden) return;
  const revealed = b.revealed;
  const cards = $("prophecy-cards");
  cards.replaceChildren();
  const used = new Set([prophecy.discard, ...prophecy.keep]);
  revealed.forEach((code, i) => {
    const c = cardEl(code);
    c.classList.add("clickable");
    c.dataset.index = i;
    if (used.has(i)) c.classList.add("gone");
    c.addEventListener("click", () => {
      if (used.has(i)) return;
      if (prophecy.discard === null) prophecy.discard = i;
      else prophecy.keep.push(i);
      renderProphecy(board);
    });
    cards.appendChild(c);
  });
  const order = $("prophecy-order");
  order.replaceChildren();
  if (prophecy.discard !== null) {
    order.appendChild(el("span", "note", "discard:"));
    order.appendChild(cardEl(revealed[prophecy.discard], true));
    order.appendChild(el("span", "note", "keep, top first:"));
    for (const i of prophecy.keep) order.appendChild(cardEl(revealed[i], true));
  }
  const go = $("prophecy-go");
  const complete = prophecy.discard !== null && prophecy.keep.length === revealed.length - 1;
  let label = null;
  if (complete) {
    label = "prophecy discard=" + revealed[prophecy.discard] + " keep="
      + (prophecy.keep.map((i) => revealed[i]).join(",") || "-");
  }
  go.disabled = !(label && b.legal.includes(label));
  go.textContent = label || "choose the cards";
  go.dataset.move = label || "";
}

function renderLog(b) {
  const log = $("log");
  log.replaceChildren();
  for (const m of b.moves) {
    const li = el("li");
    li.value = m.n + 1;
    li.appendChild(el("span", "", (b.players === 2 ? "player " + m.player + ": " : "") + m.action));
    for (const line of m.log) li.appendChild(el("div", "what", line));
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

function renderOver(b) {
  const box = $("game-over");
  box.hidden = !b.over;
  if (!b.over) return;
  box.replaceChildren();
  box.appendChild(el("div", "", b.result));
  box.appendChild(el("div", "", "Seed " + b.seed + " (replay with: " + b.replay + ")"));
  box.appendChild(el("div", "note", "The rest of the deck, top first:"));
  box.appendChild(cardRow(b.deck_rest, true));
}

// ------------------------------------------------------------------ actions
async function play(label) {
  try {
    const b = await api("POST", "/api/move", { move: label });
    clearError();
    afterChange(b);
    if ($("auto").checked && !b.over) analyse("");
  } catch (e) { if (!e.shown) throw e; }
}

function afterChange(b) {
  hintMove = null;
  prophecy = { discard: null, keep: [] };
  $("hint-out").textContent = "";
  $("deck-shown").hidden = true;
  renderBoard(b);
  refreshGraph();
}

async function newGame() {
  try {
    const b = await api("POST", "/api/new", { seed: $("seed").value,
      mode: $("players").value, analysis: $("analysis-mode").checked });
    clearError();
    clearRanking();
    afterChange(b);
  } catch (e) { if (!e.shown) throw e; }
}

async function undo() {
  try { afterChange(await api("POST", "/api/undo", {})); clearError(); }
  catch (e) { if (!e.shown) throw e; }
}

async function showDeck() {
  try {
    const d = await api("GET", "/api/deck");
    const box = $("deck-shown");
    box.replaceChildren(el("div", "note", "Analysis mode: the whole deck, top first (seed "
      + d.seed + ")"), cardRow(d.deck, true));
    box.hidden = false;
  } catch (e) { if (!e.shown) throw e; }
}

async function pollJob(id, onProgress) {
  for (;;) {
    const j = await api("GET", "/api/job?id=" + encodeURIComponent(id));
    if (j.status === "queued" || j.status === "running") {
      onProgress(j);
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    return j;
  }
}

function clearRanking() {
  $("ranking").replaceChildren();
  $("ranking-text").textContent = "";
  $("download").hidden = true;
  $("progress").textContent = "";
}

async function analyse(position) {
  let job;
  try {
    job = await api("POST", "/api/analyse", { position,
      budget_s: $("budget-s").value, budget_nodes: $("budget-nodes").value });
  } catch (e) { if (!e.shown) throw e; return; }
  clearError();
  clearRanking();
  analysisJob = job.id;
  $("cancel").disabled = false;
  $("analyse").disabled = true;
  let j;
  try {
    j = await pollJob(job.id, (p) => {
      const g = p.progress || {};
      const parts = [p.status];
      if (g.total !== undefined) parts.push(g.exact + "/" + g.total + " actions exact",
        (g.round ? "round " + g.round : "probes"), (g.nodes || 0).toLocaleString("en") + " nodes");
      parts.push(p.elapsed.toFixed(1) + " s");
      if (p.notes.length) parts.push(p.notes[p.notes.length - 1]);
      $("progress").textContent = parts.join(", ");
    });
  } catch (e) { j = null; }
  if (analysisJob !== job.id) return;        // a newer analysis replaced this one
  analysisJob = null;
  $("cancel").disabled = true;
  $("analyse").disabled = false;
  if (!j) return;
  if (j.status === "cancelled") { $("progress").textContent = "cancelled"; return; }
  if (j.status === "error") {
    $("progress").textContent = j.interrupted ? "cancelled" : "";
    if (!j.interrupted) showError(j.error);
    return;
  }
  $("progress").textContent = "done in " + j.elapsed.toFixed(1) + " s"
    + (j.interrupted ? " (cancelled: what was found so far)" : "");
  renderRanking(j.result);
}

async function cancel() {
  if (!analysisJob) return;
  try { await api("POST", "/api/cancel", { id: analysisJob }); }
  catch (e) { if (!e.shown) throw e; }
}

async function hint() {
  try {
    const job = await api("POST", "/api/hint", {});
    $("hint-out").textContent = "hint: thinking...";
    const j = await pollJob(job.id, () => {});
    if (j.status !== "done") { showError(j.error); $("hint-out").textContent = ""; return; }
    hintMove = j.result.action;
    $("hint-out").replaceChildren(el("b", "", "hint: " + j.result.action),
      el("span", "note", "  [" + j.result.why + "]"));
    $("hint-out").id = "hint-out";
    for (const btn of document.querySelectorAll("button.move")) {
      btn.classList.toggle("hinted", btn.dataset.move === hintMove);
    }
  } catch (e) { if (!e.shown) throw e; }
}

// ------------------------------------------------------------------ the ranking
function fmt(x) { return x === null || x === undefined ? "-" : x.toFixed(3); }

function renderRanking(result) {
  const r = result.ranking;
  const box = $("ranking");
  box.replaceChildren();
  const verdict = el("div", "verdict");
  // the same words as the text output of onirim best (onirim/best_output.py)
  if (r.best !== null) {
    verdict.appendChild(el("b", "", "best: " + r.best));
  } else {
    verdict.appendChild(el("div", "", "best: undecided (no action's lo reaches every other's hi)"));
    verdict.appendChild(el("div", "", r.leader ? "leader: " + r.leader + ", by " + r.criterion
      : r.criterion));
  }
  box.appendChild(verdict);
  if (r.interrupted) box.appendChild(el("div", "note", "interrupted: the search was stopped; "
    + "the bounds below are what it proved before, sound"));
  box.appendChild(el("div", "note", r.mode + " · " + r.nodes.toLocaleString("en") + " nodes · "
    + r.seconds.toFixed(2) + " s"));
  const top = r.best !== null ? r.best : r.leader;
  for (const a of r.actions) {
    const row = el("div", "rank-row" + (a.action === top ? " top" : ""));
    row.dataset.action = a.action;
    const name = el("div", "act", a.action);
    name.title = a.action;
    if (a.action === r.best) name.appendChild(el("span", "tag", "best"));
    else if (a.action === r.leader) name.appendChild(el("span", "tag leader", "leader"));
    row.appendChild(name);
    const track = el("div", "track");
    const bound = el("div", "bound" + (a.exact ? " exact" : ""));
    bound.style.left = (100 * a.lo) + "%";
    bound.style.width = Math.max(0.5, 100 * (a.hi - a.lo)) + "%";
    bound.title = a.exact ? "exact value " + a.value : "bounds [" + fmt(a.lo) + ", " + fmt(a.hi) + "]";
    track.appendChild(bound);
    if (a.estimate !== undefined && a.estimate !== null) {
      if (a.ci95) {
        const ci = el("div", "ci");
        ci.style.left = (100 * a.ci95[0]) + "%";
        ci.style.width = (100 * (a.ci95[1] - a.ci95[0])) + "%";
        track.appendChild(ci);
      }
      const est = el("div", "est");
      est.style.left = (100 * a.estimate) + "%";
      est.title = "estimate " + fmt(a.estimate) + (a.ci95 ? ", 95% interval [" + fmt(a.ci95[0])
        + ", " + fmt(a.ci95[1]) + "]" : "");
      track.appendChild(est);
    }
    row.appendChild(track);
    row.appendChild(el("div", "num", a.exact ? fmt(a.value)
      : (a.estimate !== undefined && a.estimate !== null ? "~" + fmt(a.estimate)
        : fmt(a.lo) + "+")));
    box.appendChild(row);
  }
  const legend = el("div", "legend");
  legend.innerHTML = "<i style='background:#9fb8d8'></i>bounds lo..hi (sound)"
    + "<i style='background:#2e7d32;width:3px'></i>exact"
    + "<i style='background:#e67e22'></i>estimate, 95% interval";
  box.appendChild(legend);
  $("ranking-text").textContent = result.text;
  const link = $("download");
  if (link.href) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([result.json + "\n"], { type: "application/json" }));
  link.hidden = false;
  link.dataset.json = result.json;
}

// ------------------------------------------------------------------ the graph
async function refreshGraph() {
  clearTimeout(graphTimer);
  let g;
  try { g = await api("GET", "/api/graph"); } catch (e) { return; }
  drawGraph(g);
  const missing = g.points.some((p) => p.value === null);
  if (missing && Number($("graph-budget").value) > 0) {
    graphTimer = setTimeout(refreshGraph, 1000);
  }
}

function drawGraph(g) {
  const W = 400, H = 170, L = 30, R = 8, T = 8, B = 20;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, id: "graph-svg" });
  const n = Math.max(1, g.points.length - 1);
  const x = (i) => L + (W - L - R) * i / n;
  const y = (v) => T + (H - T - B) * (1 - v);
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#eee" }));
    const t = svgEl("text", { x: 2, y: y(v) + 4, "font-size": 10, fill: "#777" });
    t.textContent = Math.round(v * 100) + "%";
    svg.appendChild(t);
  }
  const lab = svgEl("text", { x: W - R, y: H - 5, "font-size": 10, fill: "#777",
    "text-anchor": "end" });
  lab.textContent = "decision";
  svg.appendChild(lab);
  const pts = g.points.filter((p) => p.value !== null);
  if (pts.length > 1) {
    svg.appendChild(svgEl("polyline", { fill: "none", stroke: "#2471a3", "stroke-width": 2,
      points: pts.map((p) => x(p.i) + "," + y(p.value)).join(" ") }));
  }
  const colour = { exact: "#2e7d32", estimate: "#e67e22", bound: "#999" };
  for (const p of pts) {
    const c = svgEl("circle", { cx: x(p.i), cy: y(p.value), r: p.marked ? 5 : 2.5,
      fill: p.marked ? "#c0392b" : colour[p.kind] || "#999" });
    const title = svgEl("title", {});
    title.textContent = "decision " + (p.i + 1) + ": " + Math.round(100 * p.value) + "% ("
      + p.kind + ")" + (p.played ? "; played " + p.played : "");
    c.appendChild(title);
    svg.appendChild(c);
  }
  $("graph").replaceChildren(svg);
  const drops = $("drops");
  drops.replaceChildren();
  for (const i of g.marked) {
    const p = g.points[i];
    drops.appendChild(el("div", "drop", "decision " + (i + 1) + ": " + p.played + " lost "
      + (100 * p.drop).toFixed(1) + " points; better: " + p.better));
  }
  if (!g.marked.length) drops.appendChild(el("div", "", "no costly move marked yet"));
}

// ------------------------------------------------------------------ the position box
async function copy(text) {
  $("position").value = text;
  try { await navigator.clipboard.writeText(text); } catch (e) { /* the box holds it */ }
}

async function setGraphBudget() {
  try {
    await api("POST", "/api/graph/budget", { budget_nodes: $("graph-budget").value });
    clearError();
    refreshGraph();
  } catch (e) { if (!e.shown) throw e; }
}

async function start() {
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("show-deck").addEventListener("click", showDeck);
  $("analyse").addEventListener("click", () => analyse(""));
  $("analyse-pasted").addEventListener("click", () => analyse($("position").value));
  $("cancel").addEventListener("click", cancel);
  $("hint").addEventListener("click", hint);
  $("copy-text").addEventListener("click", () => copy(board.position));
  $("copy-json").addEventListener("click", () => copy(JSON.stringify(board.position_json)));
  $("graph-budget").addEventListener("change", setGraphBudget);
  $("prophecy-go").addEventListener("click", () => play($("prophecy-go").dataset.move));
  $("prophecy-reset").addEventListener("click", () => {
    prophecy = { discard: null, keep: [] };
    renderProphecy(board);
  });
  try { afterChange(await api("GET", "/api/state")); } catch (e) { if (!e.shown) throw e; }
  document.body.dataset.ready = "1";
}

start();
