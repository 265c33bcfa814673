// boardlab serve: the page's script. Plain JavaScript, no libraries, no
// network beyond this server. The server is stateless: every request
// carries the game string, the start position and the moves so far.
"use strict";

const $ = (id) => document.getElementById(id);

// Errors seen by the page, read by the browser test.
window.boardlabErrors = [];
window.addEventListener("error", (e) => window.boardlabErrors.push(String(e.message)));

/** GET a JSON answer; an HTTP error becomes an Error with the server's one-line message. */
async function api(path, params) {
  const q = new URLSearchParams(params || {}).toString();
  const r = await fetch(path + (q ? "?" + q : ""));
  const text = await r.text();
  if (!r.ok) throw new Error(text || r.status + " " + r.statusText);
  return JSON.parse(text);
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") e.addEventListener("click", v);
    else if (k === "className") e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

/** The cell elements of a board's SVG, by name (each cell's <title>). */
function cellsOf(board) {
  const map = new Map();
  for (const c of board.querySelectorAll(".cell")) {
    const t = c.querySelector("title");
    if (t) map.set(t.textContent, c);
  }
  return map;
}

// ---------------------------------------------------------------------------
// Play
// ---------------------------------------------------------------------------

const play = {
  game: "catapult", start: "", seed: "1", seats: [], moves: [], by: [],
  pos: null, path: [], busy: false, generation: 0, games: [], agents: [],
};

function message(text, info) {
  const m = $("message");
  m.textContent = text || "";
  m.className = info ? "message info" : "message";
}

function seatInputs(n) {
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.textContent = "";
  for (let k = 0; k < n; k++) {
    const def = old[k] || (k === 0 ? "human" : "random");
    const input = el("input", { id: "seat-" + k, value: def, size: "18", list: "agent-names" });
    box.append(el("label", {}, "Seat " + k + " ", input), " ");
  }
  if (!$("agent-names")) {
    const dl = el("datalist", { id: "agent-names" });
    for (const a of ["human", "random", "mcts(ms=1000)", "mcts(iterations=2000)", "alphabeta(depth=3)", "uct(iterations=1000)"]) {
      dl.append(el("option", { value: a }));
    }
    document.body.append(dl);
  }
}

function seatAgents() {
  return [...$("seats").querySelectorAll("input")].map((i) => i.value.trim() || "human");
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  play.generation++;
  play.game = $("game").value.trim();
  play.seed = $("seed").value.trim() || "1";
  play.start = "";
  play.moves = [];
  play.by = [];
  play.path = [];
  message("");
  try {
    const pos = await api("/api/position", { game: play.game, seed: play.seed, start: $("start-pos").value.trim() });
    play.start = pos.start;
    if ($("seats").querySelectorAll("input").length !== pos.seats) seatInputs(pos.seats);
    play.seats = seatAgents();
    await show(pos);
  } catch (e) {
    message(e.message);
  }
}

function params(moves) {
  return { game: play.game, start: play.start, seed: play.seed, moves: moves.join(" ") };
}

/** Shows a position and, where an agent or chance moves, asks for its move. */
async function show(pos) {
  play.pos = pos;
  play.path = [];
  $("board").innerHTML = pos.svg || "<pre>" + escapeHtml(pos.text) + "</pre>";
  $("status").textContent = pos.status;
  renderLog();
  renderLegal();
  $("choices").textContent = "";
  const board = $("board").querySelector("svg");
  if (board) board.addEventListener("click", onBoardClick);
  if (pos.to_move === "terminal") {
    message("Game over: " + pos.status.replace(/^game over: /, ""), true);
    return;
  }
  if (pos.to_move === "chance" || !isHuman(pos.seat)) {
    const gen = play.generation;
    setTimeout(() => { if (gen === play.generation) agentMove(); }, 250);
  }
}

function isHuman(seat) {
  return seat === null || seat === undefined || (play.seats[seat] || "human") === "human";
}

async function agentMove() {
  if (play.busy) return;
  const gen = play.generation;
  const pos = play.pos;
  const agent = pos.to_move === "chance" ? "" : play.seats[pos.seat];
  play.busy = true;
  try {
    const r = await api("/api/move", { ...params(play.moves), agent });
    if (gen !== play.generation) return;
    await playMove(r.move, r.by, r.info);
  } catch (e) {
    message(e.message);
  } finally {
    play.busy = false;
  }
}

/** Plays a move: the server checks it; an illegal one is answered with its reason. */
async function playMove(text, by, info) {
  const gen = play.generation;
  const moves = [...play.moves, text];
  try {
    const pos = await api("/api/position", params(moves));
    if (gen !== play.generation) return;
    play.moves = moves;
    const who = by || (play.pos.to_move === "chance" ? "chance" : "seat " + play.pos.seat + " (human)");
    play.by.push({ who, seat: play.pos.seat, info });
    message("");
    await show(pos);
  } catch (e) {
    message("not played: " + e.message);
  }
}

function renderLog() {
  const log = $("log");
  log.textContent = "";
  play.moves.forEach((m, i) => {
    const b = play.by[i] || {};
    const li = el("li", {}, m + "  ", el("span", { className: "info" }, b.who || ""));
    if (b.info) li.append(el("div", { className: "info" }, "score " + fmt(b.info.score) + " " + (b.info.units || "") + (b.info.pv && b.info.pv.length ? "; pv " + b.info.pv.join(" ") : "")));
    log.append(li);
  });
  log.scrollTop = log.scrollHeight;
}

function fmt(x) {
  return typeof x === "number" ? (Math.round(x * 100) / 100).toString() : String(x);
}

/** The legal moves, grouped by the cell they start from. */
function renderLegal() {
  const box = $("legal");
  box.textContent = "";
  const legal = play.pos.to_move === "seat" && isHuman(play.pos.seat) ? play.pos.legal : [];
  $("legal-count").textContent = legal.length ? "(" + legal.length + ")" : "";
  const groups = new Map();
  for (const m of legal) {
    const key = m.cells.length ? m.cells[0] : "other";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(m);
  }
  for (const [key, ms] of groups) {
    const d = el("details", {}, el("summary", {}, key + " (" + ms.length + ")"));
    if (groups.size <= 12) d.open = true;
    for (const m of ms.slice(0, 400)) d.append(el("button", { className: "mv", type: "button", onclick: () => playMove(m.text) }, m.text));
    box.append(d);
  }
}

/** Click a piece, then a target: the clicked cells are a path, matched against each legal move's cells; compound turns go cell by cell. */
function onBoardClick(ev) {
  const pos = play.pos;
  if (!pos || pos.to_move !== "seat" || !isHuman(pos.seat) || play.busy) return;
  const cell = ev.target.closest(".cell");
  if (!cell) return;
  const t = cell.querySelector("title");
  if (!t) return;
  const name = t.textContent;
  let path = [...play.path, name];
  let cands = matching(path);
  if (!cands.length) {
    path = [name];
    cands = matching(path);
  }
  if (!cands.length) {
    play.path = [];
    mark();
    message("no legal move starts at " + name);
    return;
  }
  message("");
  const exact = cands.filter((m) => m.cells.length === path.length);
  if (exact.length === 1 && cands.length === 1) {
    playMove(exact[0].text);
    return;
  }
  play.path = path;
  mark();
  const choices = $("choices");
  choices.textContent = "";
  if (exact.length) {
    choices.append("Play: ");
    for (const m of exact) choices.append(el("button", { type: "button", onclick: () => playMove(m.text) }, m.text));
    if (cands.length > exact.length) choices.append(" or click on to continue the turn");
  }
}

function matching(path) {
  return play.pos.legal.filter((m) => m.cells.length >= path.length && path.every((c, i) => m.cells[i] === c));
}

/** Colours the selected path and the cells that can come next. */
function mark(hint) {
  const cells = cellsOf($("board"));
  for (const c of cells.values()) c.classList.remove("selected", "target", "hinted");
  for (const n of play.path) if (cells.has(n)) cells.get(n).classList.add("selected");
  if (play.path.length) {
    for (const m of matching(play.path)) {
      const next = m.cells[play.path.length];
      if (next && cells.has(next)) cells.get(next).classList.add("target");
    }
  }
  for (const n of hint || []) if (cells.has(n)) cells.get(n).classList.add("hinted");
}

/** Takes back the last full turn of the person to move, and the replies since. */
function undo() {
  if (play.busy) return;
  let k = play.moves.length - 1;
  while (k >= 0 && !isHuman(play.by[k].seat)) k--;
  if (k < 0) { message("nothing to undo"); return; }
  const seat = play.by[k].seat;
  while (k > 0 && play.by[k - 1].seat === seat) k--;
  play.generation++;
  const moves = play.moves.slice(0, k);
  const by = play.by.slice(0, k);
  api("/api/position", params(moves)).then((pos) => {
    play.moves = moves;
    play.by = by;
    message("taken back to ply " + pos.ply, true);
    return show(pos);
  }).catch((e) => message(e.message));
}

async function hint() {
  const pos = play.pos;
  if (!pos || pos.to_move !== "seat") return;
  const agent = play.seats.find((s) => s !== "human") || "mcts(iterations=2000)";
  message("thinking (" + agent + ")...", true);
  try {
    const r = await api("/api/move", { ...params(play.moves), agent });
    const info = r.info ? " (" + r.info.line + ")" : "";
    message("hint from " + agent + ": " + r.move + info, true);
    const m = pos.legal.find((x) => x.text === r.move);
    mark(m ? m.cells : []);
  } catch (e) {
    message(e.message);
  }
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// ---------------------------------------------------------------------------
// Replay
// ---------------------------------------------------------------------------

const replay = { path: "", record: null, ply: 0, timer: null, generation: 0 };

async function openRecords(ev) {
  if (ev) ev.preventDefault();
  const path = $("records-path").value.trim();
  $("replay-message").textContent = "";
  try {
    const r = await api("/api/records", { path });
    replay.path = path;
    const table = el("table", {}, el("tr", {}, el("th", {}, "line"), el("th", {}, "agents"), el("th", {}, "plies"), el("th", {}, "winners"), el("th", {}, "end")));
    for (const g of r.games) {
      const tr = el("tr", { "data-line": String(g.line), onclick: () => openGame(g.line, tr) },
        el("td", {}, String(g.line)), el("td", {}, (g.agents || []).join(" vs ")), el("td", {}, String(g.plies)),
        el("td", {}, (g.winners || []).length ? g.winners.join(",") : "draw"), el("td", {}, g.end || ""));
      table.append(tr);
    }
    $("games").textContent = "";
    $("games").append(table);
    if (r.games.length) await openGame(r.games[0].line, table.querySelector("tr[data-line]"));
    else $("replay-message").textContent = "no games in " + path;
  } catch (e) {
    $("replay-message").textContent = e.message;
  }
}

async function openGame(line, row) {
  try {
    const rec = await api("/api/record", { path: replay.path, line: String(line) });
    for (const tr of $("games").querySelectorAll("tr")) tr.classList.remove("current");
    if (row) row.classList.add("current");
    replay.record = rec;
    const list = $("replay-moves");
    list.textContent = "";
    rec.moves.forEach((m, i) => {
      const li = el("li", { onclick: () => step(i + 1) }, m);
      const info = rec.info && rec.info[i];
      if (info) li.append(el("span", { className: "info" }, "  " + (info.score !== undefined ? "score " + fmt(info.score) : "") + (info.pv ? "; pv " + info.pv.join(" ") : "")));
      list.append(li);
    });
    $("jump").max = String(rec.moves.length);
    await step(0);
  } catch (e) {
    $("replay-message").textContent = e.message;
  }
}

async function step(ply) {
  const rec = replay.record;
  if (!rec) return;
  ply = Math.max(0, Math.min(rec.moves.length, ply));
  const gen = ++replay.generation;
  try {
    const pos = await api("/api/position", { game: rec.game, start: rec.start, seed: String(rec.seed || 1), moves: rec.moves.slice(0, ply).join(" ") });
    if (gen !== replay.generation) return;
    replay.ply = ply;
    $("replay-board").innerHTML = pos.svg || "<pre>" + escapeHtml(pos.text) + "</pre>";
    $("replay-status").textContent = pos.status;
    $("jump").value = String(ply);
    $("replay-ply").textContent = "ply " + ply + " of " + rec.moves.length;
    $("replay-moves").querySelectorAll("li").forEach((li, i) => li.classList.toggle("current", i === ply - 1));
  } catch (e) {
    $("replay-message").textContent = e.message;
  }
}

function autoplay() {
  if (replay.timer) {
    clearInterval(replay.timer);
    replay.timer = null;
    $("autoplay").textContent = "Autoplay";
    return;
  }
  $("autoplay").textContent = "Stop";
  replay.timer = setInterval(() => {
    if (!replay.record || replay.ply >= replay.record.moves.length) autoplay();
    else step(replay.ply + 1);
  }, 600);
}

// ---------------------------------------------------------------------------
// Report: Markdown (headings, paragraphs, lists, tables, code, images, links)
// ---------------------------------------------------------------------------

function fileUrl(base, href) {
  if (/^[a-z]+:/.test(href) || href.startsWith("#")) return href;
  const dir = base.includes("/") ? base.slice(0, base.lastIndexOf("/") + 1) : "";
  const parts = [];
  for (const p of (dir + href).split("/")) {
    if (p === "..") parts.pop();
    else if (p !== "." && p !== "") parts.push(p);
  }
  const path = (base.startsWith("/") ? "/" : "") + parts.join("/");
  return "/file?" + new URLSearchParams({ path }).toString();
}

function inline(text, base) {
  let s = escapeHtml(text);
  s = s.replace(/!\[([^\]]*)\]\(([^)\s]+)[^)]*\)/g, (_, alt, src) => '<img alt="' + alt + '" src="' + fileUrl(base, src) + '">');
  s = s.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, t, href) => {
    const url = /\.(svg|png)$/.test(href) ? fileUrl(base, href) : href;
    return '<a href="' + url + '">' + t + "</a>";
  });
  s = s.replace(/`([^`]+)`/g, "<code>$1</code>");
  s = s.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
  return s;
}

function markdown(md, base) {
  const lines = md.split("\n");
  let html = "";
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("```")) {
      let code = "";
      i++;
      while (i < lines.length && !lines[i].startsWith("```")) code += lines[i++] + "\n";
      html += "<pre>" + escapeHtml(code) + "</pre>";
      i++;
    } else if (/^#{1,6} /.test(line)) {
      const n = line.match(/^#+/)[0].length;
      html += "<h" + n + ">" + inline(line.slice(n + 1), base) + "</h" + n + ">";
      i++;
    } else if (line.startsWith("|")) {
      let rows = [];
      while (i < lines.length && lines[i].startsWith("|")) rows.push(lines[i++]);
      rows = rows.filter((r) => !/^\|[\s:|-]+\|?\s*$/.test(r));
      html += "<table>" + rows.map((r, k) => {
        const cells = r.replace(/^\|/, "").replace(/\|\s*$/, "").split("|");
        const tag = k === 0 ? "th" : "td";
        return "<tr>" + cells.map((c) => "<" + tag + ">" + inline(c.trim(), base) + "</" + tag + ">").join("") + "</tr>";
      }).join("") + "</table>";
    } else if (/^\s*[-*] /.test(line)) {
      html += "<ul>";
      while (i < lines.length && /^\s*[-*] /.test(lines[i])) html += "<li>" + inline(lines[i++].replace(/^\s*[-*] /, ""), base) + "</li>";
      html += "</ul>";
    } else if (line.trim() === "") {
      i++;
    } else {
      let p = "";
      while (i < lines.length && lines[i].trim() !== "" && !/^(#|\||```|\s*[-*] )/.test(lines[i])) p += lines[i++] + " ";
      html += "<p>" + inline(p, base) + "</p>";
    }
  }
  return html;
}

async function openReport(ev) {
  if (ev) ev.preventDefault();
  const path = $("report-path").value;
  $("report-message").textContent = "";
  if (!path) {
    $("report-message").textContent = "no report: start the server with --root FOLDER (e.g. --root results)";
    return;
  }
  try {
    const r = await fetch("/file?" + new URLSearchParams({ path }).toString());
    const text = await r.text();
    if (!r.ok) throw new Error(text);
    $("report-body").innerHTML = markdown(text, path);
  } catch (e) {
    $("report-message").textContent = e.message;
  }
}

// ---------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------

function route() {
  const view = (location.hash || "#play").slice(1);
  for (const v of ["play", "replay", "report"]) {
    $(v).hidden = v !== view;
    $("nav-" + v).classList.toggle("active", v === view);
  }
}

async function start() {
  window.addEventListener("hashchange", route);
  route();
  $("setup").addEventListener("submit", newGame);
  $("move-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = $("move-text").value.trim();
    if (t) playMove(t).then(() => { $("move-text").value = ""; });
  });
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("replay-open").addEventListener("submit", openRecords);
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step(replay.ply - 1));
  $("forward").addEventListener("click", () => step(replay.ply + 1));
  $("last").addEventListener("click", () => step(replay.record ? replay.record.moves.length : 0));
  $("jump").addEventListener("input", () => step(Number($("jump").value)));
  $("autoplay").addEventListener("click", autoplay);
  $("report-open").addEventListener("submit", openReport);
  const q = new URLSearchParams(location.search);
  if (q.get("game")) $("game").value = q.get("game");
  if (q.get("start")) $("start-pos").value = q.get("start");
  try {
    const g = await api("/api/games");
    for (const x of g.games) $("game-names").append(el("option", { value: x.name }, x.description));
    const f = await api("/api/files");
    for (const p of f.records) $("records-files").append(el("option", { value: p }));
    if (f.records.length && !$("records-path").value) $("records-path").value = f.records[0];
    for (const p of f.reports) $("report-path").append(el("option", { value: p }, p));
    const rep = f.reports.find((p) => p.endsWith("REPORT.md"));
    if (rep) $("report-path").value = rep;
  } catch (e) {
    message(e.message);
  }
  seatInputs(2);
  await newGame();
}

start();
