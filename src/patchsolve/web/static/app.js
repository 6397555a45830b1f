// patchsolve web app: the page holds the game (start text + moves + the ply
// shown); the server replays it on every request and draws the board.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const COLS = "abcdefghi";
const state = {
  game: { start: null, moves: [] },
  ply: 0,
  view: null,
  patches: [],
  selected: null,        // {patch, o} or {leather: true}
  hover: null,           // square under the pointer
  job: null,             // the running job: {id, purpose, about, mover, ply, stop}
  review: null,
  quiz: null,            // the exercises being practised: {exercises, k, found, answered}
  setup: null,           // while setting up: {placed: [[pieces], [pieces]], pick, hover}
};

const $ = (id) => document.getElementById(id);

function squareName(sq) { return COLS[sq % 9] + (Math.floor(sq / 9) + 1); }

async function api(path, body) {
  const opts = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const resp = await fetch(path, opts);
  let data;
  try { data = await resp.json(); } catch (e) { data = { error: `bad answer (${resp.status})` }; }
  if (!resp.ok) { const err = new Error(data.error || `error ${resp.status}`); err.status = resp.status; throw err; }
  return data;
}

function message(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (kind ? " " + kind : "");
}

function setStatus(text) { $("status").textContent = text; }

// -- the game ------------------------------------------------------------------

function showView(view) {
  // a set-up ends only by Use this position or Cancel (both clear state.setup
  // first): a late answer (an engine move, a click) must not throw it away
  if (state.setup) return;
  state.view = view;
  state.game = { start: view.start, moves: view.moves };
  state.ply = view.ply;
  state.selected = view.pending_leather !== null && view.ply === view.length ? { leather: true } : null;
  drawBoard();
  drawCircle();
  drawMoveList();
  drawSelection();
  markReviewPly();
  const v = view;
  $("ply-info").textContent = `move ${v.ply} of ${v.length}`;
  if (state.job !== null && !stillShown(state.job)) abandonJob();   // its answer would not be drawn
  // an answer or a map drawn for another position goes (its rows would play there)
  for (const id of ["result", "map-view"]) {
    const box = $(id);
    if (box.dataset.about && box.dataset.about !== aboutNow(true)) { box.innerHTML = ""; delete box.dataset.about; }
  }
  // the score if the game ended now is noise at the start (both about -160)
  const started = v.fields.time[0] + v.fields.time[1] > 0;
  if (v.is_over) setStatus(`Game over: ${v.outcome}`);
  else setStatus(`Player ${v.to_move} to move` + (v.pending_leather !== null ? " (place the leather patch)" : "")
    + (started ? ` \u2014 score if the game ended now: ${v.scores[0]} / ${v.scores[1]}` : ""));
  maybeEngineMove();
}

const SETUP_LOCKED = "finish the set-up first: Use this position, or Cancel";

async function goTo(ply) {
  if (state.setup) { message(SETUP_LOCKED, "error"); return; }
  if (ply !== state.ply) abandonJob();
  try { showView(await api("/api/game", { game: state.game, ply })); }
  catch (e) { message(e.message, "error"); }
}

async function playMove(move) {
  if (state.setup) { message(SETUP_LOCKED, "error"); return false; }
  try {
    const view = await api("/api/play", { game: state.game, ply: state.ply, move });
    message(`played ${move}`, "ok");
    showView(view);
    return true;
  } catch (e) {
    message(`refused: ${e.message}`, "error");
    flashBoard();
    return false;
  }
}

function flashBoard() {
  const b = $("board");
  b.style.outline = "3px solid #b00020";
  setTimeout(() => { b.style.outline = ""; }, 600);
}

// -- the board: the server's SVG plus click targets on the mover's quilt ----------

function drawBoard() {
  const v = state.view;
  $("board").innerHTML = v.svg;
  const svg = $("board").querySelector("svg");
  if (v.is_over) return;
  // the next patches drawn under the time board can be picked there too (the circle may be below the fold)
  svg.querySelectorAll("g.next-patch").forEach((g) => {
    g.style.cursor = "pointer";
    g.addEventListener("click", () => selectPatch(parseInt(g.dataset.patch, 10)));
  });
  const p = v.to_move;
  const [x0, y0] = v.quilt_origins[p];
  const ghost = document.createElementNS(SVGNS, "g");
  ghost.setAttribute("id", "ghost");
  svg.appendChild(ghost);
  const hits = document.createElementNS(SVGNS, "g");
  for (let sq = 0; sq < 81; sq++) {
    const r = document.createElementNS(SVGNS, "rect");
    r.setAttribute("x", x0 + (sq % 9) * v.cell);
    r.setAttribute("y", y0 + Math.floor(sq / 9) * v.cell);
    r.setAttribute("width", v.cell);
    r.setAttribute("height", v.cell);
    r.setAttribute("fill", "transparent");
    r.setAttribute("class", "sq");
    r.dataset.square = sq;
    r.dataset.player = p;
    r.addEventListener("mouseenter", () => { state.hover = sq; drawGhost(); });
    r.addEventListener("mouseleave", () => { if (state.hover === sq) { state.hover = null; drawGhost(); } });
    r.addEventListener("click", () => clickSquare(sq));
    hits.appendChild(r);
  }
  svg.appendChild(hits);
  drawGhost();
}

function selectedCells() {
  const s = state.selected;
  if (!s) return null;
  if (s.leather) return [[0, 0]];
  return state.patches[s.patch].orientations[s.o];
}

function moveAt(sq) {
  const s = state.selected;
  if (!s) return null;
  return s.leather ? `leather@${squareName(sq)}` : `${s.patch}:${s.o}@${squareName(sq)}`;
}

function drawGhost() {
  const ghost = document.getElementById("ghost");
  if (!ghost) return;
  ghost.innerHTML = "";
  const cells = selectedCells();
  if (!cells || state.hover === null) return;
  const v = state.view;
  const [x0, y0] = v.quilt_origins[v.to_move];
  const r0 = Math.floor(state.hover / 9), c0 = state.hover % 9;
  const legal = v.legal.includes(moveAt(state.hover));
  for (const [r, c] of cells) {
    if (r0 + r > 8 || c0 + c > 8) continue;
    const rect = document.createElementNS(SVGNS, "rect");
    rect.setAttribute("x", x0 + (c0 + c) * v.cell + 1);
    rect.setAttribute("y", y0 + (r0 + r) * v.cell + 1);
    rect.setAttribute("width", v.cell - 2);
    rect.setAttribute("height", v.cell - 2);
    rect.setAttribute("fill", legal ? "rgba(40,160,60,0.55)" : "rgba(200,0,30,0.45)");
    rect.setAttribute("pointer-events", "none");
    ghost.appendChild(rect);
  }
  // the square the move is named by (the patch's top-left corner), outlined even when no
  // square of the patch is on the board there, so a refusal always shows
  const mark = document.createElementNS(SVGNS, "rect");
  mark.setAttribute("x", x0 + c0 * v.cell + 1); mark.setAttribute("y", y0 + r0 * v.cell + 1);
  mark.setAttribute("width", v.cell - 2); mark.setAttribute("height", v.cell - 2);
  mark.setAttribute("fill", "none"); mark.setAttribute("stroke-width", 2);
  mark.setAttribute("stroke", legal ? "#1e7a32" : "#b00020");
  mark.setAttribute("class", legal ? "anchor" : "anchor refused");
  mark.setAttribute("pointer-events", "none");
  ghost.appendChild(mark);
}

function clickSquare(sq) {
  if (engineToMove()) { message("the engine is to move", "error"); return; }
  const move = moveAt(sq);
  if (!move) { message("choose a patch first (one of the three marked in the circle)", "error"); return; }
  playMove(move);  // the server is the judge: an illegal placement is refused with its reason
}

// -- choosing and turning a patch -------------------------------------------------

function drawCircle() {
  const v = state.view;
  $("circle-title").innerHTML = "Circle <small>(from the neutral token; the three marked can be bought)</small>";
  const box = $("circle");
  box.innerHTML = "";
  const buttons = v.fields.buttons[v.to_move ?? 0];
  v.fields.circle.forEach((id, i) => {
    const p = state.patches[id];
    const card = document.createElement("div");
    card.className = "patch-card";
    card.dataset.patch = id;
    card.title = `${id} ${p.name}: cost ${p.buttons}, time ${p.time}, income ${p.income}`;
    if (i < 3 && !v.is_over) {
      card.classList.add("buyable");
      if (p.buttons > buttons) card.classList.add("unaffordable");
      card.addEventListener("click", () => selectPatch(id));
    }
    if (state.selected && state.selected.patch === id) card.classList.add("selected");
    card.appendChild(shapeSvg(p.orientations[0], p.colour, 7));
    const label = document.createElement("div");
    label.textContent = `${id} \u00b7 ${p.buttons}/${p.time}/${p.income}`;
    card.appendChild(label);
    box.appendChild(card);
  });
}

function shapeSvg(cells, colour, size) {
  const h = Math.max(...cells.map((c) => c[0])) + 1, w = Math.max(...cells.map((c) => c[1])) + 1;
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("width", w * size);
  svg.setAttribute("height", h * size);
  for (const [r, c] of cells) {
    const rect = document.createElementNS(SVGNS, "rect");
    rect.setAttribute("x", c * size); rect.setAttribute("y", r * size);
    rect.setAttribute("width", size); rect.setAttribute("height", size);
    rect.setAttribute("fill", colour); rect.setAttribute("stroke", "#333"); rect.setAttribute("stroke-width", "0.5");
    svg.appendChild(rect);
  }
  return svg;
}

function selectPatch(id) {
  const v = state.view;
  if (v.pending_leather !== null) { message("place the leather patch first", "error"); return; }
  const p = state.patches[id];
  if (p.buttons > v.fields.buttons[v.to_move]) {
    message(`patch ${id} costs ${p.buttons} buttons; player ${v.to_move} has ${v.fields.buttons[v.to_move]}`, "error");
    return;
  }
  state.selected = { patch: id, o: 0 };
  message("");
  drawCircle(); drawSelection(); drawGhost();
}

function cellKey(cells) {
  const r0 = Math.min(...cells.map((c) => c[0])), c0 = Math.min(...cells.map((c) => c[1]));
  return cells.map(([r, c]) => `${r - r0},${c - c0}`).sort().join(" ");
}

function turn(transform) {
  const s = state.selected;
  if (!s || s.leather) return;
  const all = state.patches[s.patch].orientations;
  const want = cellKey(all[s.o].map(transform));
  const o = all.findIndex((cells) => cellKey(cells) === want);
  if (o >= 0) s.o = o;
  drawSelection(); drawGhost();
}

const rotate = () => state.setup ? turnSetupPick(([r, c]) => [c, -r]) : turn(([r, c]) => [c, -r]);
const flip = () => state.setup ? turnSetupPick(([r, c]) => [r, -c]) : turn(([r, c]) => [r, -c]);

function drawSelection() {
  const s = state.selected, el = $("selection");
  el.innerHTML = "";
  if (!s) { el.textContent = "Choose one of the three marked patches below, or walk."; return; }
  if (s.leather) { el.textContent = "Place the leather patch: click a free square."; return; }
  const p = state.patches[s.patch];
  el.appendChild(shapeSvg(p.orientations[s.o], p.colour, 10));
  el.appendChild(document.createTextNode(
    ` patch ${s.patch} (${p.name}), orientation ${s.o}: cost ${p.buttons}, time ${p.time}, income ${p.income} \u2014 click its top-left square`));
}

// -- moves list, undo, redo ---------------------------------------------------

function drawMoveList() {
  const list = $("move-list");
  list.innerHTML = "";
  state.game.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    if (i + 1 === state.ply) li.className = "current";
    else if (i + 1 > state.ply) li.className = "future";
    li.addEventListener("click", () => goTo(i + 1));
    list.appendChild(li);
  });
}

async function undo() {
  if (state.setup || state.ply === 0) return;
  abandonJob();
  let view = await api("/api/game", { game: state.game, ply: state.ply - 1 });
  // against the engine, take back to the human's turn
  while (view.ply > 0 && isEngineSide(view.to_move)) {
    view = await api("/api/game", { game: state.game, ply: view.ply - 1 });
  }
  showView(view);
}

function redo() { if (!state.setup && state.ply < state.game.moves.length) goTo(state.ply + 1); }

// -- the engine ---------------------------------------------------------------

function isEngineSide(p) {
  const side = $("engine-side").value;
  return side === "both" || side === String(p);
}

function engineToMove() {
  const v = state.view;
  return v && !v.is_over && v.ply === v.length && isEngineSide(v.to_move);
}

function seconds(id, lo, hi) {
  const x = parseFloat($(id).value);
  return Math.min(hi, Math.max(lo, isNaN(x) ? lo : x));
}

function maybeEngineMove() {
  if (!state.setup && engineToMove() && state.job === null) {
    startSearch(seconds("move-time", 0.05, 30), "engine-move");
  }
}

// One job at a time, and each job remembers what it is about: the game, the
// move shown and its mover when it started. Its progress and its answer are
// drawn only while that is still what the page shows; the slot is taken
// before the request is sent, so a second click cannot start a second job.
function aboutNow(withPly) {
  return JSON.stringify(state.game) + (withPly ? `@${state.ply}` : "");
}

function stillShown(job) {
  return !state.setup && job.about !== null && aboutNow(job.purpose !== "review") === job.about;
}

// Stop the job and set its answer aside, before the page leaves its position
// (the stop's reply could otherwise come while the old position is shown).
function abandonJob() {
  if (state.job === null) return;
  state.job.about = null;
  stopJob();
}

function showWaiting(on) {
  const box = $("result");
  delete box.dataset.about;
  if (on) { box.innerHTML = "<small>searching\u2026</small>"; box.dataset.waiting = "1"; }
  else { box.innerHTML = ""; delete box.dataset.waiting; }
}

async function runJob(path, request, purpose) {
  if (state.job !== null) { message("the engine is busy; wait or stop it", "error"); return; }
  const job = { id: null, purpose, stop: false, about: aboutNow(purpose !== "review"),
    mover: state.view.to_move, ply: state.ply };
  state.job = job;
  $("stop").disabled = false;
  // the previous answer was about another search: never leave it beside the new one
  if (purpose !== "review") showWaiting(true);
  try {
    const first = await api(path, request);
    job.id = first.id;
    if (purpose === "engine-move" && stillShown(job)) setStatus("The engine is thinking...");
    if (job.stop) stopJob();
    pollJob(first, job);
  } catch (e) {
    endJob(job);
    message(e.message, "error");
  }
}

function startSearch(time, purpose) {
  const top = purpose === "hint" ? 8 : 1;   // the engine's own move needs no ranked list
  const request = { game: state.game, ply: state.ply, engine: $("engine").value, time, top };
  if (purpose === "engine-move") request.level = parseInt($("level").value, 10);   // the opponent's level
  return runJob("/api/search", request, purpose);
}

function endJob(job) {
  if (state.job === job) state.job = null;
  $("stop").disabled = true;
  const waiting = $("result").dataset.waiting === "1";
  if (waiting) showWaiting(false);   // an answer, if any, is drawn next; an error leaves none
  if (stillShown(job)) return;
  $("progress-text").textContent = "";   // its progress was about that position too
  $("progress-bar").style.width = "0%";
  if (waiting) $("result").innerHTML = "<small>the answer was about another position: not shown</small>";
}

async function pollJob(status, job) {
  if (stillShown(job)) showProgress(status);
  if (status.status === "running") {
    setTimeout(async () => {
      try { pollJob(await api(`/api/jobs/${status.id}`), job); }
      catch (e) { endJob(job); message(e.message, "error"); }
    }, 150);
    return;
  }
  endJob(job);
  if (state.setup) { $("result").innerHTML = ""; return; }   // an answer about the game, not the set-up
  const r = status.result;
  if (!stillShown(job)) {
    // set aside
  } else if (status.status === "error") {
    message(`engine error: ${status.error}`, "error");
  } else if (job.purpose === "review") {
    showReview(r);
  } else if (job.purpose === "engine-move" && r && r.best_move && engineToMove()) {
    // once played, the answer is about the position before the board shown: say so, and no more
    $("result").innerHTML = `<small>the engine played ${r.best_move} for player ${job.mover} at move ${job.ply}</small>`;
    await playMove(r.best_move);
    return;
  } else {
    showResult(r, status.status, job);
  }
  maybeEngineMove();   // its turn may have come while this job held the engine
}

function showProgress(job) {
  if (state.setup) return;   // the hidden game's search is not news about the set-up
  const frac = Math.min(1, job.elapsed / Math.max(job.budget, 0.01));
  $("progress-bar").style.width = `${(job.status === "running" ? frac : 1) * 100}%`;
  const p = job.progress;
  let text = `${job.kind} ${job.status}, ${job.elapsed.toFixed(1)} s of ${job.budget.toFixed(1)} s`;
  if (p && p.best_move) {
    const size = p.iterations ? `${p.iterations} iterations` : `depth ${p.depth}`;
    text += ` \u2014 ${size}: ${p.best_move} ${fmt(p.score)}  pv ${p.pv.join(" ")}`;
  }
  if (p && p.positions) text += ` \u2014 position ${p.position} of ${p.positions}`;
  $("progress-text").textContent = text;
}

function fmt(x) {
  if (x === null || x === undefined) return "?";
  const s = Number.isInteger(x) ? String(x) : x.toFixed(1);
  return x > 0 ? "+" + s : s;
}

// what the solver proved beyond the value shown: outcome, best move, interval
function proofText(r) {
  const parts = [];
  if (r.proven) parts.push(`proven ${r.proven}`);
  if (r.proven_best && r.bound !== "exact") parts.push("proven best");
  if (r.lower !== null && r.lower !== undefined && r.upper !== null && r.upper !== undefined && r.lower < r.upper) {
    parts.push(`margin in [${fmt(r.lower)}, ${fmt(r.upper)}]`);
  }
  return parts.join(", ");
}

// a bound reads as one: "\u2264 -16" is at most -16, a bare -16 beside an exact -16 reads as as good
const BOUND_SIGN = { upper: "\u2264 ", lower: "\u2265 " };

function cell(row, key) {
  const v = row[key];
  if (v === null || v === undefined) return "";
  const text = typeof v === "number" && !Number.isInteger(v) ? v.toFixed(3) : String(v);
  return (key === "score" || key === "win_probability" ? BOUND_SIGN[row.bound] ?? "" : "") + text;
}

function showResult(r, status, job) {
  const box = $("result");
  if (!r) { box.textContent = "no result"; return; }
  let html = `<p><b>best move: <span id="best-move">${r.best_move}</span></b> &nbsp; value ${fmt(r.score)} (${r.bound})`
    + ` for player ${job.mover} at move ${job.ply}`;
  const proof = proofText(r);
  if (proof) html += ` <span id="proof">(${proof})</span>`;
  if (r.win_probability !== null && r.win_probability !== undefined) html += `, win ${(100 * r.win_probability).toFixed(1)}%`;
  html += `<br>pv: ${r.pv.join(" ")}<br><small>${r.engine}, depth ${r.depth}, nodes ${r.nodes}`
    + `${r.iterations ? ", iterations " + r.iterations : ""}, ${r.time.toFixed(2)} s${status === "stopped" ? ", stopped" : ""}</small></p>`;
  const top = (r.root_moves || []).slice(0, 8);
  if (top.length) {
    const keys = Object.keys(top[0]).filter((k) => k !== "move"
      && top.some((d) => d[k] !== null && d[k] !== undefined));   // e.g. no visits under alpha-beta
    const title = { choice_visits: "choice visits" };
    html += `<table><tr><th>#</th><th>move</th>${keys.map((k) => `<th>${title[k] ?? k}</th>`).join("")}</tr>`;
    top.forEach((d, i) => {
      html += `<tr class="playable" data-move="${d.move}"><td>${i + 1}</td><td>${d.move}</td>`
        + keys.map((k) => `<td>${cell(d, k)}</td>`).join("") + "</tr>";
    });
    html += "</table><small>click a move to play it</small>";
  } else {
    html += "<small>(this engine reports no ranked list of root moves)</small>";
  }
  box.innerHTML = html;
  box.dataset.about = job.about;
  box.querySelectorAll("tr.playable").forEach((tr) => tr.addEventListener("click", () => playMove(tr.dataset.move)));
}

async function stopJob() {
  const job = state.job;
  if (job === null) return;
  if (job.id === null) { job.stop = true; return; }   // stopped as soon as the server names it
  try { await api(`/api/jobs/${job.id}/stop`, {}); } catch (e) { /* already finished */ }
}

// -- review ---------------------------------------------------------------------

function startReview() {
  $("practise").disabled = true;   // until this review has answered: the quiz is made of its moves
  return runJob("/api/analyze", {
    game: state.game, nodes: Math.round(seconds("review-nodes", 1000, 3000000)),
  }, "review");
}

async function showMap() {
  if (state.setup) { message(SETUP_LOCKED, "error"); return; }
  const about = aboutNow(true), ply = state.ply;
  try {
    const m = await api("/api/map", { game: state.game, ply });
    if (aboutNow(true) !== about) return;   // the page has moved on: a map of another position
    $("map-view").dataset.about = about;
    $("map-view").innerHTML = m.svg
      + `<small>at move ${ply}: expected empty squares ${m.expected_empty.map((x) => x.toFixed(1)).join(" / ")} `
      + `(${m.samples} greedy continuations)</small>`;
  } catch (e) { message(e.message, "error"); }
}

async function explainMove(ply, move, where) {
  try {
    const e = await api("/api/explain", { game: state.game, ply, move });
    where.textContent = e.text;
  } catch (err) { message(err.message, "error"); }
}

// -- practise the mistakes (patchsolve.quiz) ------------------------------------------

// a quiz or grading job, waited for: its result (an Error when it fails or is stopped)
async function jobResult(path, body) {
  let job = await api(path, body);
  while (job.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, 150));
    job = await api(`/api/jobs/${job.id}`);
  }
  if (job.status !== "done") throw new Error(job.error || `the ${job.kind} job was ${job.status}`);
  return job.result;
}

async function startQuiz() {
  if (!state.review) return;
  const player = $("practise-player").value;
  try {
    const q = await jobResult("/api/quiz", {
      moves: state.review.moves, threshold: parseFloat($("threshold").value) || 0,
      player: player === "" ? null : parseInt(player, 10),
    });
    if (!q.exercises.length) { message("no move lost more than the threshold: nothing to practise"); return; }
    state.quiz = { exercises: q.exercises, k: 0, found: 0, answered: 0 };
    $("quiz").hidden = false;
    showExercise();
  } catch (e) { message(e.message, "error"); }
}

function showExercise() {
  const q = state.quiz, e = q.exercises[q.k];
  $("quiz-title").textContent = `Exercise ${q.k + 1} of ${q.exercises.length}: move ${e.number}, `
    + `player ${e.player} to move; the game's ${e.played} lost ${e.played_loss.toFixed(1)} points`;
  $("quiz-result").textContent = "";
  $("quiz-move").value = "";
  $("quiz-score").textContent = `found ${q.found} of ${q.answered} answered`;
  goTo(e.number - 1);
}

async function checkAnswer() {
  const q = state.quiz, e = q.exercises[q.k];
  try {
    const g = await jobResult("/api/quiz/grade", { exercise: e, move: $("quiz-move").value.trim() });
    q.answered += 1;
    if (g.correct) q.found += 1;
    $("quiz-result").textContent = g.correct
      ? `found: ${g.move} is ${g.loss === 0 ? "the best" : `within ${g.loss.toFixed(1)} points of the best`} (${fmt(g.value)}, ${g.bound})`
      : `${g.move} loses ${g.loss.toFixed(1)} points (${fmt(g.value)} against ${fmt(e.best_value)}, ${g.bound})`;
    $("quiz-score").textContent = `found ${q.found} of ${q.answered} answered`;
  } catch (err) { $("quiz-result").textContent = err.message; }
}

function showAnswer() {
  const e = state.quiz.exercises[state.quiz.k];
  $("quiz-result").textContent = `best: ${e.best} (${fmt(e.best_value)}, ${e.bound}); line: ${e.pv.slice(0, 8).join(" ")}`;
}

function nextExercise() {
  const q = state.quiz;
  if (q.k + 1 >= q.exercises.length) {
    $("quiz-result").textContent = `done: found ${q.found} of ${q.exercises.length}`;
    return;
  }
  q.k += 1;
  showExercise();
}

function showReview(review) {
  if (!review) { message("the review was stopped before it reviewed a move", "error"); return; }
  if (review.partial) message(`review stopped: the first ${review.moves.length} moves are reviewed`, "error");
  state.review = review;
  $("practise").disabled = false;
  $("review-graph").innerHTML = review.svg;
  $("review-graph").querySelectorAll("[data-ply]").forEach((el) =>
    el.addEventListener("click", () => goTo(parseInt(el.dataset.ply, 10))));
  const lines = review.summary.map((s) =>
    `player ${s.player}: accuracy ${s.accuracy === null ? "-" : s.accuracy.toFixed(1)}, `
    + `average loss ${s.average_loss.toFixed(2)}; ${s.classes.inaccuracy} inaccuracies, `
    + `${s.classes.mistake} mistakes, ${s.classes.blunder} blunders`);
  if (review.budget) lines.push(`judged at ${review.budget.text} (one search a move: the same verdicts every time)`);
  // the judged moves, each a link to the position before it (where the choice was made)
  const judged = review.moves.filter((m) => ["inaccuracy", "mistake", "blunder"].includes(m.class));
  const items = judged.map((m) =>
    `<li class="review-mistake ${m.class}" data-ply="${m.number - 1}">${m.number}. player ${m.player}: `
    + `${m.move} (${m.class}, -${m.loss.toFixed(1)} points, -${(100 * m.win_loss).toFixed(0)}% win; `
    + `best ${m.best_move})${m.proven_before === "win" && m.proven_after === "loss" ? " threw away a proven win" : ""} <a href="#" class="why" data-ply="${m.number - 1}" data-move="${m.move}">why?</a></li>`);
  $("review-text").innerHTML = lines.join("<br>")
    + (items.length ? `<ul class="review-mistakes">${items.join("")}</ul>` : "")
    + `<pre id="why-text" class="why-text"></pre>`
    + "<small>click a move above or the graph to go there; why? explains it</small>";
  $("review-text").querySelectorAll("li.review-mistake").forEach((el) =>
    el.addEventListener("click", () => goTo(parseInt(el.dataset.ply, 10))));
  $("review-text").querySelectorAll("a.why").forEach((el) =>
    el.addEventListener("click", (ev) => {
      ev.preventDefault(); ev.stopPropagation();
      explainMove(parseInt(el.dataset.ply, 10), el.dataset.move, $("why-text"));
    }));
  markReviewPly();
}

function markReviewPly() {
  const g = $("review-graph");
  g.querySelectorAll("rect.ply-hit").forEach((r) => {
    r.classList.toggle("current-ply", parseInt(r.dataset.ply, 10) === state.ply);
  });
}

// -- load / save -------------------------------------------------------------------

async function load() {
  abandonJob();
  try {
    const view = await api("/api/load", { text: $("io").value });
    message("loaded", "ok");
    showWaiting(false);
    $("review-graph").innerHTML = ""; $("review-text").innerHTML = "";
    showView(view);
  } catch (e) { message(`cannot load: ${e.message}`, "error"); }
}

function download() {
  const blob = new Blob([state.view.record], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "patchsolve-game.txt";
  a.click();
  URL.revokeObjectURL(a.href);
}

async function newGame() {
  abandonJob();
  message("");
  try {
    const view = await api("/api/new", { seed: parseInt($("seed").value, 10) || 0 });
    showWaiting(false);
    $("review-graph").innerHTML = ""; $("review-text").innerHTML = "";
    showView(view);   // last: it may start the engine's first move
  } catch (e) { message(e.message, "error"); }
}

// -- set-up from the table: paint patches into the quilts ------------------------

// While a set-up is on screen the game below it is hidden: every control that
// would act on that game (search it, play into it, replace it) is disabled,
// with the reason shown beside it, until Use this position or Cancel.
const GAME_CONTROLS = ["best", "walk", "undo", "redo", "new-game", "review", "load", "show-position",
  "show-record", "download", "engine-side", "map", "practise"];

function lockGame(on) {
  for (const id of GAME_CONTROLS) {
    $(id).disabled = on || (id === "practise" && !state.review);
    if (on) $(id).dataset.title = $(id).title;
    $(id).title = on ? SETUP_LOCKED : ($(id).dataset.title ?? $(id).title);
  }
  document.querySelectorAll("[data-lock]").forEach((el) => { el.hidden = !on; });
  $("move-list").classList.toggle("locked", on);
}

// The pieces of the position shown, for a set-up that starts from it: each
// patch's squares give its orientation and top-left square.
function piecesOf(view) {
  const placed = [[], []];
  let unnamed = 0;
  for (const p of [0, 1]) {
    const byPatch = {};
    for (const [sq, label] of Object.entries(view.labels[p])) {
      const s = parseInt(sq, 10), r = Math.floor(s / 9), c = s % 9;
      if (label === "L") placed[p].push({ leather: true, r, c });
      else (byPatch[label] = byPatch[label] || []).push([r, c]);
    }
    for (const [id, cells] of Object.entries(byPatch)) {
      const pid = parseInt(id, 10), key = cellKey(cells);
      const o = state.patches[pid].orientations.findIndex((cs) => cellKey(cs) === key);
      if (o < 0) { unnamed += cells.length; continue; }
      placed[p].push({ patch: pid, orientation: o, r: Math.min(...cells.map((x) => x[0])),
        c: Math.min(...cells.map((x) => x[1])) });
    }
    unnamed += view.unnamed[p];
  }
  return { placed, unnamed };
}

function startSetup() {
  abandonJob();
  const v = state.view, f = v.fields;
  const { placed, unnamed } = piecesOf(v);
  state.setup = { placed, pick: null, hover: null };
  $("setup-circle").value = f.circle.join(",");
  $("setup-edition").value = f.edition;
  ["buttons", "time"].forEach((k) => { $(`setup-${k}0`).value = f[k][0]; $(`setup-${k}1`).value = f[k][1]; });
  $("setup-form").hidden = false;
  for (const id of ["setup-use", "setup-cancel", "setup-leather"]) $(id).disabled = false;
  $("setup-start").disabled = true;
  $("result").innerHTML = "";
  $("progress-text").textContent = ""; $("progress-bar").style.width = "0";
  lockGame(true);
  setStatus("Setting up a position: paint the quilts, fill in the form, then Use this position");
  setupMessage(unnamed ? `${unnamed} covered squares of the position shown name no patch: lay those patches again` : "",
    unnamed ? "error" : "");
  drawSetup();
  // the answers of the position shown (drawSetup has just shown the questions that apply)
  $("setup-on-top").value = f.on_top === null ? "" : String(f.on_top);
  $("setup-bonus").value = f.bonus_owner === null ? "" : String(f.bonus_owner);
}

function setupMessage(text, kind) {
  $("setup-message").textContent = text;
  $("setup-message").className = "message" + (kind ? " " + kind : "");
}

function endSetup() {
  state.setup = null;
  endSetupControls();
  showView(state.view);
}

function pieceCells(piece) {
  if (piece.leather) return [[0, 0]];
  return state.patches[piece.patch].orientations[piece.orientation];
}

function coveredBy(player) {
  const owner = {};
  state.setup.placed[player].forEach((piece, i) => {
    for (const [r, c] of pieceCells(piece)) owner[(piece.r + r) * 9 + piece.c + c] = i;
  });
  return owner;
}

function holds7x7(player) {
  const owner = coveredBy(player);
  for (let r = 0; r <= 2; r++) {
    for (let c = 0; c <= 2; c++) {
      let full = true;
      for (let i = 0; i < 7 && full; i++) for (let j = 0; j < 7 && full; j++) full = owner[(r + i) * 9 + c + j] !== undefined;
      if (full) return true;
    }
  }
  return false;
}

// Ask who is on top / who took the bonus only when the table leaves it open.
function setupQuestions() {
  if (!state.setup) return;
  const shared = $("setup-time0").value !== "" && $("setup-time0").value === $("setup-time1").value;
  const both = holds7x7(0) && holds7x7(1);
  // a question that newly applies starts unanswered: there is no default
  if (shared && $("setup-on-top-row").hidden) $("setup-on-top").value = "";
  if (both && $("setup-bonus-row").hidden) $("setup-bonus").value = "";
  $("setup-on-top-row").hidden = !shared;
  $("setup-bonus-row").hidden = !both;
}

function circleIds() {
  return $("setup-circle").value.split(/[\s,]+/).filter((x) => x !== "").map(Number);
}

function coordinates(svg, x0, y0, cell) {
  for (let i = 0; i < 9; i++) {
    const col = document.createElementNS(SVGNS, "text");
    col.setAttribute("x", x0 + i * cell + cell / 2); col.setAttribute("y", y0 + 9 * cell + 11);
    col.setAttribute("font-size", 9); col.setAttribute("text-anchor", "middle"); col.setAttribute("fill", "#777");
    col.textContent = COLS[i];
    const row = document.createElementNS(SVGNS, "text");
    row.setAttribute("x", x0 - 4); row.setAttribute("y", y0 + i * cell + cell / 2 + 3);
    row.setAttribute("font-size", 9); row.setAttribute("text-anchor", "end"); row.setAttribute("fill", "#777");
    row.textContent = String(i + 1);
    svg.appendChild(col); svg.appendChild(row);
  }
}

function drawSetup() {
  const cell = state.view.cell, origins = state.view.quilt_origins;
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("width", 640); svg.setAttribute("height", 300);
  for (const p of [0, 1]) {
    const [x0, y0] = origins[p];
    const title = document.createElementNS(SVGNS, "text");
    title.setAttribute("x", x0); title.setAttribute("y", 30); title.setAttribute("font-weight", "bold");
    title.setAttribute("class", "setup-title");
    title.dataset.player = p;
    title.textContent = `Player ${p}: ${state.setup.placed[p].length} pieces`;
    svg.appendChild(title);
    const owner = coveredBy(p);
    for (let sq = 0; sq < 81; sq++) {
      const x = x0 + (sq % 9) * cell, y = y0 + Math.floor(sq / 9) * cell;
      const rect = document.createElementNS(SVGNS, "rect");
      rect.setAttribute("x", x); rect.setAttribute("y", y);
      rect.setAttribute("width", cell); rect.setAttribute("height", cell);
      const piece = owner[sq] === undefined ? null : state.setup.placed[p][owner[sq]];
      rect.setAttribute("fill", piece ? (piece.leather ? "#8c5a2b" : state.patches[piece.patch].colour) : "#f3ede2");
      rect.setAttribute("stroke", "#999");
      rect.setAttribute("class", "setup-sq");
      rect.dataset.player = p; rect.dataset.square = sq;
      rect.addEventListener("click", () => setupClick(p, sq));
      rect.addEventListener("mouseenter", () => { state.setup.hover = [p, sq]; drawSetupGhost(svg); });
      svg.appendChild(rect);
      if (piece && !piece.leather) {        // the patch's symbol, as on the board and in board text
        const t = document.createElementNS(SVGNS, "text");
        t.setAttribute("x", x + cell / 2); t.setAttribute("y", y + cell / 2 + 4);
        t.setAttribute("font-size", 10); t.setAttribute("text-anchor", "middle");
        t.setAttribute("pointer-events", "none");
        t.textContent = state.patches[piece.patch].symbol;
        svg.appendChild(t);
      }
    }
    coordinates(svg, x0, y0, cell);
  }
  const ghost = document.createElementNS(SVGNS, "g");
  ghost.setAttribute("id", "setup-ghost");
  svg.appendChild(ghost);
  $("board").innerHTML = "";
  $("board").appendChild(svg);
  drawSetupCatalogue();
  setupQuestions();
}

function drawSetupGhost(svg) {
  const g = svg.querySelector("#setup-ghost");
  g.innerHTML = "";
  const s = state.setup;
  if (!s.pick || !s.hover) return;
  const [p, sq] = s.hover, [x0, y0] = state.view.quilt_origins[p], cell = state.view.cell;
  const owner = coveredBy(p);
  const fits = pieceCells(s.pick).every(([r, c]) => Math.floor(sq / 9) + r <= 8 && sq % 9 + c <= 8
    && owner[(Math.floor(sq / 9) + r) * 9 + sq % 9 + c] === undefined);
  for (const [r, c] of pieceCells(s.pick)) {
    const rr = Math.floor(sq / 9) + r, cc = sq % 9 + c;
    if (rr > 8 || cc > 8) continue;
    const rect = document.createElementNS(SVGNS, "rect");
    rect.setAttribute("x", x0 + cc * cell + 2); rect.setAttribute("y", y0 + rr * cell + 2);
    rect.setAttribute("width", cell - 4); rect.setAttribute("height", cell - 4);
    rect.setAttribute("fill", fits ? "rgba(40,120,200,0.5)" : "rgba(200,0,30,0.45)");
    rect.setAttribute("pointer-events", "none");
    g.appendChild(rect);
  }
}

function setupClick(p, sq) {
  const s = state.setup, owner = coveredBy(p);
  if (owner[sq] !== undefined) {         // take a laid piece off; it goes back to the circle's end
    const [piece] = s.placed[p].splice(owner[sq], 1);
    if (!piece.leather) $("setup-circle").value = circleIds().concat([piece.patch]).join(",");
    drawSetup();
    return;
  }
  if (!s.pick) { setupMessage("pick a patch (below) or the leather patch first", "error"); return; }
  const r0 = Math.floor(sq / 9), c0 = sq % 9;
  for (const [r, c] of pieceCells(s.pick)) {
    if (r0 + r > 8 || c0 + c > 8 || owner[(r0 + r) * 9 + c0 + c] !== undefined) {
      setupMessage(`it does not fit with its top-left corner on ${squareName(sq)}`, "error");
      return;
    }
  }
  s.placed[p].push({ ...s.pick, r: r0, c: c0 });
  if (!s.pick.leather) {
    $("setup-circle").value = circleIds().filter((x) => x !== s.pick.patch).join(",");
    s.pick = null;
  }
  setupMessage("");
  drawSetup();
}

function drawSetupCatalogue() {
  const box = $("circle");
  box.innerHTML = "";
  $("circle-title").innerHTML = "Catalogue <small>(pick a patch to lay it; greyed: in a quilt)</small>";
  const pick = state.setup.pick;
  $("selection").textContent = !pick ? "Set-up: pick a patch below or the leather patch."
    : pick.leather ? "Set-up: the leather patch \u2014 click a square."
    : `Set-up: patch ${pick.patch} (${state.patches[pick.patch].name}), orientation ${pick.orientation} \u2014 click its top-left square (R/F turn it).`;
  const laid = new Set(state.setup.placed.flat().filter((x) => !x.leather).map((x) => x.patch));
  for (const p of state.patches) {
    const card = document.createElement("div");
    card.className = "patch-card buyable" + (laid.has(p.id) ? " unaffordable" : "");
    card.dataset.patch = p.id;
    if (state.setup.pick && state.setup.pick.patch === p.id) card.classList.add("selected");
    card.appendChild(shapeSvg(p.orientations[0], p.colour, 7));
    const label = document.createElement("div");
    label.textContent = `${p.id} \u00b7 ${p.buttons}/${p.time}/${p.income}`;
    card.appendChild(label);
    if (!laid.has(p.id)) card.addEventListener("click", () => {
      state.setup.pick = { patch: p.id, orientation: 0 };
      drawSetupCatalogue();
    });
    box.appendChild(card);
  }
}

function turnSetupPick(transform) {
  const pick = state.setup.pick;
  if (!pick || pick.leather) return;
  const all = state.patches[pick.patch].orientations;
  const want = cellKey(all[pick.orientation].map(transform));
  const o = all.findIndex((cells) => cellKey(cells) === want);
  if (o >= 0) pick.orientation = o;
  drawSetupCatalogue();
  drawSetupGhost($("board").querySelector("svg"));
}

async function useSetup() {
  const num = (id) => parseInt($(id).value, 10);
  const answer = (row, select) => $(row).hidden ? null : $(select).value === "" ? undefined : num(select);
  const onTop = answer("setup-on-top-row", "setup-on-top"), bonus = answer("setup-bonus-row", "setup-bonus");
  if (onTop === undefined) { setupMessage("both tokens share a space: say whose token is on top", "error"); return; }
  if (bonus === undefined) { setupMessage("both quilts hold a 7x7 square: say who took the bonus", "error"); return; }
  const body = {
    edition: $("setup-edition").value,
    circle: circleIds(),
    quilts: state.setup.placed.map((pieces) => pieces.map((x) => x.leather
      ? { leather: true, square: squareName(x.r * 9 + x.c) }
      : { patch: x.patch, orientation: x.orientation, square: squareName(x.r * 9 + x.c) })),
    buttons: [num("setup-buttons0"), num("setup-buttons1")],
    time: [num("setup-time0"), num("setup-time1")],
    on_top: onTop,
    bonus_owner: bonus,
  };
  try {
    const view = await api("/api/setup", body);
    state.setup = null;
    endSetupControls();
    message("position set up", "ok");
    $("result").innerHTML = "";
    $("review-graph").innerHTML = ""; $("review-text").innerHTML = "";
    showView(view);
  } catch (e) {
    setupMessage(`refused: ${e.message}`, "error");
  }
}

function endSetupControls() {
  $("setup-form").hidden = true;
  for (const id of ["setup-use", "setup-cancel", "setup-leather"]) $(id).disabled = true;
  $("setup-start").disabled = false;
  $("setup-message").textContent = "";
  lockGame(false);
}

// -- wiring ----------------------------------------------------------------------------

function wire() {
  $("rotate").addEventListener("click", rotate);
  $("flip").addEventListener("click", flip);
  $("walk").addEventListener("click", () => { if (!state.setup && !engineToMove()) playMove("walk"); });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("new-game").addEventListener("click", newGame);
  $("best").addEventListener("click", () => {
    if (state.setup) { message(SETUP_LOCKED, "error"); return; }
    if (state.view.is_over) { message("the game is over", "error"); return; }
    if (state.job !== null) { message("the engine is busy; wait or stop it", "error"); return; }
    if (parseFloat($("think-time").value) > 30) message("think time capped at 30 s (the server's limit)", "error");
    startSearch(seconds("think-time", 0.05, 30), "hint");
  });
  $("stop").addEventListener("click", stopJob);
  $("engine-side").addEventListener("change", maybeEngineMove);
  $("map").addEventListener("click", showMap);
  $("practise").addEventListener("click", startQuiz);
  $("quiz-check").addEventListener("click", checkAnswer);
  $("quiz-answer").addEventListener("click", showAnswer);
  $("quiz-next").addEventListener("click", nextExercise);
  $("load").addEventListener("click", load);
  $("show-position").addEventListener("click", () => { $("io").value = state.view.position; });
  $("show-record").addEventListener("click", () => { $("io").value = state.view.record; });
  $("download").addEventListener("click", download);
  $("review").addEventListener("click", startReview);
  $("setup-start").addEventListener("click", startSetup);
  $("setup-cancel").addEventListener("click", endSetup);
  $("setup-use").addEventListener("click", useSetup);
  $("setup-leather").addEventListener("click", () => { state.setup.pick = { leather: true }; drawSetupCatalogue(); });
  for (const id of ["setup-time0", "setup-time1"]) $(id).addEventListener("input", setupQuestions);
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
    if (state.setup && (e.key === "r" || e.key === "R")) turnSetupPick(([r, c]) => [c, -r]);
    else if (state.setup && (e.key === "f" || e.key === "F")) turnSetupPick(([r, c]) => [r, -c]);
    else if (state.setup) return;
    else if (e.key === "r" || e.key === "R") rotate();
    else if (e.key === "f" || e.key === "F") flip();
    else if (e.key === "w" || e.key === "W") { if (!engineToMove()) playMove("walk"); }
    else if (e.key === "ArrowLeft") undo();
    else if (e.key === "ArrowRight") redo();
    else if (e.key === "Escape") { state.selected = null; drawSelection(); drawCircle(); drawGhost(); }
  });
}

async function init() {
  wire();
  try {
    state.patches = (await api("/api/patches")).patches;
    showView(await api("/api/game", { game: state.game }));
  } catch (e) { setStatus(`cannot reach the server: ${e.message}`); }
}

init();
