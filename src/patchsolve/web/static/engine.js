// The engine: one job at a time on the server (a search, a review, the
// quiz's exercises or a grade), each remembering the node it is about, so
// its progress and its answer are drawn only while that node is shown. An
// analysis (live or asked once) gives way to anything else: it is discarded
// at once (the server ends it and frees the engine) when the page moves on or
// needs the engine for another job. What an analysis found is kept per node,
// so coming back to a position shows it again.

import { drawGhosts } from "./board.js";
import {
  $, BOUND_FLIP, BOUND_WORDS, PLAYER_FILL, api, app, escapeHtml, fmt, message, percent, setStatus, sleep, state,
} from "./util.js";

const ANALYSIS = new Set(["live", "hint"]);
let chain = Promise.resolve();

// one change of the engine's job at a time (starting one may first end another)
function serial(fn) {
  const p = chain.then(fn);
  chain = p.catch(() => {});
  return p;
}

export function seconds(id, lo, hi) {
  const x = parseFloat($(id).value);
  return Math.min(hi, Math.max(lo, isNaN(x) ? lo : x));
}

export function engineBusy() { return state.job !== null && !ANALYSIS.has(state.job.purpose); }

// Start a job about `node` (null: about nothing on the board), with `extra`
// facts the answer needs (set before the request: a fast job may be done by
// the time the server first answers). An analysis job running is discarded
// first; another job running refuses the new one (an analysis is then simply
// not started). Resolves to the job, or null.
export function startJob(purpose, path, body, node = null, extra = {}) {
  return serial(async () => {
    const running = state.job;
    if (running && !ANALYSIS.has(running.purpose)) {
      if (!ANALYSIS.has(purpose)) message(`the engine is busy with the ${running.purpose}; wait or Stop`, "error");
      return null;
    }
    if (running) await discard(running);
    const job = { id: null, purpose, node, cancelled: false, ...extra };
    state.job = job;
    $("stop").disabled = false;
    try {
      const first = await api(path, body);
      job.id = first.id;
      poll(job, first);
      return job;
    } catch (e) {
      if (state.job === job) state.job = null;
      $("stop").disabled = state.job === null;
      // another page's job holds the engine: an analysis tries again in a moment, quietly
      if (ANALYSIS.has(purpose) && e.status === 409) setTimeout(scheduleAnalysis, 1000);
      else message(e.message, "error");
      return null;
    }
  });
}

// end `job` without waiting for its answer (the server frees the engine before it replies)
async function discard(job) {
  job.cancelled = true;
  if (state.job === job) state.job = null;
  if (job.id !== null) {
    try { await api(`/api/jobs/${job.id}/stop`, { discard: true }); } catch (e) { /* already over */ }
  }
  $("stop").disabled = state.job === null;
}

// the page moved on: an analysis of another node goes (its result so far is kept for that node)
export function dropAnalysis() {
  const job = state.job;
  if (job && ANALYSIS.has(job.purpose) && job.node !== state.current) return serial(() => discard(job));
  return Promise.resolve();
}

export function cancelJob() {
  const job = state.job;
  return job ? serial(() => discard(job)) : Promise.resolve();
}

// Stop: the job ends and keeps what it has (a search its deepest result, a review the moves done)
export async function stopJob() {
  const job = state.job;
  if (!job || job.id === null) return;
  if (job.purpose === "live" && state.live) { setLive(false); return; }   // Stop means the engine stops
  try { await api(`/api/jobs/${job.id}/stop`, {}); } catch (e) { /* already finished */ }
}

async function poll(job, status) {
  for (;;) {
    if (job.cancelled) break;
    progress(job, status);
    if (status.status !== "running") break;
    await sleep(ANALYSIS.has(job.purpose) ? 200 : 150);
    if (job.cancelled) break;
    try { status = await api(`/api/jobs/${job.id}`); } catch (e) { message(e.message, "error"); break; }
  }
  if (state.job === job) state.job = null;
  $("stop").disabled = state.job === null;
  if (!job.cancelled) {
    if (!about(job)) clearProgress();
    if (status.status === "error") message(`engine error: ${status.error}`, "error");
    else await app.jobDone(job, status);
  }
  app.engineFree();   // the live analysis of the position shown, or the engine's move, may start now
}

// is the job about what the page shows?
function about(job) {
  if (state.setup) return false;
  if (job.purpose === "review" || job.purpose === "quiz" || job.purpose === "grade") return true;
  return job.node === state.current && !state.quiz;
}

function progress(job, status) {
  if (ANALYSIS.has(job.purpose) && status.progress) {
    keepAnalysis(job.node, status.progress, status.status, job);
  }
  if (!about(job)) return;
  const frac = Math.min(1, status.elapsed / Math.max(status.budget, 0.01));
  $("progress-bar").style.width = `${(status.status === "running" ? frac : 1) * 100}%`;
  $("progress-text").textContent = progressText(job, status);
  if (job.purpose === "engine-move" && status.status === "running") setStatus("The engine is thinking...");
}

export function clearProgress() {
  $("progress-text").textContent = "";
  $("progress-bar").style.width = "0";
}

function progressText(job, status) {
  const p = (ANALYSIS.has(job.purpose) && status.result) || status.progress || {};
  const what = { live: "analysis", hint: "search", "engine-move": "the engine's move", review: "review",
    quiz: "making the exercises", grade: "grading" }[job.purpose];
  let text = `${what} ${status.status === "running" ? "running" : status.status}: ${status.elapsed.toFixed(1)} s`
    + ` of ${status.budget.toFixed(1)} s`;
  if (p.best_move) {
    const size = p.iterations ? `${p.iterations.toLocaleString("en")} iterations`
      : `depth ${p.depth}${p.nodes ? `, ${p.nodes.toLocaleString("en")} nodes` : ""}`;
    text += ` \u2014 ${size}`;
  }
  if (p.positions) text += ` \u2014 position ${p.position} of ${p.positions}`;
  return text;
}

// -- analyses, kept per node -------------------------------------------------------------

function keepAnalysis(node, result, status, job) {
  if (!state.tree.has(node)) return;
  state.results.set(node, { result, status, lines: job.lines, time: job.time });
  if (node === state.current && !state.quiz && !state.setup) showAnalysis();
}

export function analysisDone(job, status) {
  if (status.result) keepAnalysis(job.node, status.result, status.status, job);
}

// the value of a result as the board's ghost says it: "+3", ">= +3", "<= -16"
export function valueText(r) {
  const sign = { lower: "\u2265", upper: "\u2264" }[r.bound] || "";
  return `${sign}${fmt(r.score)}`;
}

// a result of the mover's, turned to player 0's side: margin, win chance, bound
function forPlayer0(r, mover) {
  const flip = mover === 1;
  const wp = r.win_probability;
  return {
    margin: flip ? -r.score : r.score,
    win: wp === null || wp === undefined ? null : flip ? 1 - wp : wp,
    bound: flip ? BOUND_FLIP[r.bound] || r.bound : r.bound,
  };
}

// What the page knows of the position shown: its analysis, else the review's
// verdict after the move that reached it (both for player 0).
function evaluation() {
  const v = state.view;
  if (v.is_over) {
    const margin = v.scores[0] - v.scores[1];
    return { margin, win: v.winner === 0 ? 1 : 0, bound: "exact", source: "the final score" };
  }
  const a = state.results.get(state.current);
  if (a && a.result && a.result.score !== undefined && a.result.score !== null) {
    const e = forPlayer0(a.result, v.to_move);
    const r = a.result;
    const size = r.iterations ? `${r.iterations.toLocaleString("en")} iterations` : `depth ${r.depth}`;
    return { ...e, source: `${a.status === "running" ? "analysing" : "analysis"}, ${size}` };
  }
  const mark = state.marks.get(state.current);
  if (mark) {
    return { margin: mark.margin0, win: mark.win0, bound: mark.exact ? "exact" : "estimate", source: "the review" };
  }
  return null;
}

const BAR_WORDS = { exact: "exactly", lower: "at least", upper: "at most", estimate: "about" };

export function drawEvalBar() {
  const e = state.view && !state.quiz ? evaluation() : null;
  const bar = $("eval"), fill = $("eval-fill"), text = $("eval-text");
  if (!e) {
    fill.style.width = "50%";
    bar.classList.add("empty");
    text.textContent = state.quiz ? "the quiz: no evaluation shown" : "no analysis of this position (Analyse, or Best move)";
    bar.setAttribute("aria-valuenow", "50");
    bar.setAttribute("aria-valuetext", text.textContent);
    return;
  }
  bar.classList.remove("empty");
  const win = e.win === null ? 0.5 : e.win;
  fill.style.width = `${(100 * win).toFixed(1)}%`;
  const lead = e.margin > 0 ? 0 : e.margin < 0 ? 1 : null;
  const points = `${Math.abs(e.margin)} point${Math.abs(e.margin) === 1 ? "" : "s"}`;
  const say = lead === null ? `level, ${BAR_WORDS[e.bound]}` : `player ${lead} ahead by ${BAR_WORDS[e.bound]} ${points}`;
  const words = `${say} (${BOUND_WORDS[e.bound] || e.bound})` + (e.win === null ? "" : `; player 0 wins ${percent(win)}`);
  const short = `for player 0, ${BOUND_WORDS[e.bound] || e.bound}` + (e.win === null ? "" : ` \u00b7 wins ${percent(win)}`);
  text.innerHTML = `<b>${fmt(e.margin)}</b> ${escapeHtml(short)} <small>\u00b7 ${escapeHtml(e.source)}</small>`;
  bar.style.setProperty("--p0", PLAYER_FILL[0]);
  bar.setAttribute("aria-valuenow", String(Math.round(100 * win)));
  bar.setAttribute("aria-valuetext", `${words}, from ${e.source}`);
}

// -- the ranked lines ----------------------------------------------------------------------------

// choice rows first (walking, or a patch at its best placement), then further placements
export function orderedRows(rows) {
  const kind = (d) => d.kind || "choice";
  return [...rows.filter((d) => kind(d) === "choice"), ...rows.filter((d) => kind(d) !== "choice")];
}

export function showAnalysis() {
  drawEvalBar();
  drawGhosts();
  const box = $("result");
  const a = state.results.get(state.current);
  box.innerHTML = "";
  if (!a || !a.result || state.quiz) return;
  const r = a.result, v = state.view;
  const mover = v.to_move;
  const head = document.createElement("p");
  const proof = proofText(r);
  head.innerHTML = `<b>best move: <span id="best-move">${escapeHtml(r.best_move)}</span></b> `
    + `<span class="value">${escapeHtml(valueText(r))}</span> for player ${mover} `
    + `(${escapeHtml(BOUND_WORDS[r.bound] || r.bound)})`
    + (r.win_probability !== null && r.win_probability !== undefined ? `, wins ${percent(r.win_probability)}` : "")
    + (proof ? ` <span id="proof">(${escapeHtml(proof)})</span>` : "")
    + `<br><small>${escapeHtml(budgetText(r, a))}${a.status === "stopped" ? ", stopped" : ""}`
    + `${a.status === "running" ? ", still searching" : ""}</small>`;
  box.appendChild(head);
  const rows = orderedRows(r.root_moves || []).slice(0, Math.max(a.lines || 1, 1));
  if (!rows.length) {
    box.insertAdjacentHTML("beforeend", "<small>(this engine reports no ranked list of root moves)</small>");
    return;
  }
  const table = document.createElement("table");
  table.className = "lines";
  table.innerHTML = "<caption>ranked moves for the player to move (hover or tap a row to see it on the board; "
    + "click it, or tap it twice, to play it)</caption>"
    + "<thead><tr><th scope=\"col\">#</th><th scope=\"col\">move</th><th scope=\"col\">value</th>"
    + "<th scope=\"col\">bound</th><th scope=\"col\">wins</th><th scope=\"col\">line</th></tr></thead>";
  const body = document.createElement("tbody");
  rows.forEach((d, i) => {
    const tr = document.createElement("tr");
    tr.className = "playable" + ((d.kind || "choice") === "placement" ? " placement" : "");
    tr.dataset.move = d.move;
    tr.tabIndex = 0;
    const further = (d.kind || "choice") === "placement";
    const pv = i === 0 && r.pv ? r.pv.slice(1, 6).join(" ") : "";
    tr.innerHTML = `<td>${further ? "\u2514" : i + 1}</td><td>${escapeHtml(d.move)}`
      + `${further ? " <small>(another placement)</small>" : ""}</td>`
      + `<td>${escapeHtml(valueText(d))}</td><td>${escapeHtml(BOUND_WORDS[d.bound] || d.bound || "")}</td>`
      + `<td>${d.win_probability === null || d.win_probability === undefined ? "" : percent(d.win_probability)}</td>`
      + `<td class="pv">${escapeHtml(pv)}</td>`;
    tr.setAttribute("aria-label", `${d.move}, ${valueText(d)} ${BOUND_WORDS[d.bound] || ""}; press Enter to play it`);
    wireRow(tr, d);
    body.appendChild(tr);
  });
  table.appendChild(body);
  box.appendChild(table);
}

function wireRow(tr, d) {
  const preview = () => { state.preview = { move: d.move, label: valueText(d), kind: "preview" }; drawGhosts(); };
  const unpreview = () => { if (state.preview && state.preview.move === d.move) { state.preview = null; drawGhosts(); } };
  tr.addEventListener("pointerenter", (e) => { if ((e.pointerType || "mouse") === "mouse") preview(); });
  tr.addEventListener("pointerleave", (e) => { if ((e.pointerType || "mouse") === "mouse") unpreview(); });
  tr.addEventListener("focus", preview);
  tr.addEventListener("blur", unpreview);
  tr.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); app.play(d.move); } });
  tr.addEventListener("click", () => {
    // a finger cannot hover: the first tap previews the row, a second tap plays it
    if (state.pointer !== "mouse" && !(state.preview && state.preview.move === d.move)) { preview(); return; }
    state.preview = null;
    app.play(d.move);
  });
}

function budgetText(r, a) {
  const size = r.iterations ? `${r.iterations.toLocaleString("en")} iterations` : `depth ${r.depth}`;
  const nodes = r.nodes ? `, ${r.nodes.toLocaleString("en")} nodes` : "";
  const took = r.time !== undefined ? r.time : r.elapsed;
  return `${r.engine || "engine"}, ${size}${nodes}`
    + (took !== undefined && took !== null ? `, ${took.toFixed(2)} s` : "")
    + (a.time ? ` of ${a.time} s a position` : "");
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

// -- live analysis ---------------------------------------------------------------------------------

let liveTimer = null;

export function setLive(on) {
  state.live = on;
  $("live").setAttribute("aria-pressed", String(on));
  $("live").textContent = on ? "Analyse: on" : "Analyse: off";
  $("live").classList.toggle("on", on);
  if (on) scheduleAnalysis();
  else if (state.job && state.job.purpose === "live") stopJob();   // live is off now: this stops the job
}

// analyse the position shown, a moment after the page settles on it (stepping
// through moves with the arrow keys starts no search for each position passed)
export function scheduleAnalysis() {
  clearTimeout(liveTimer);
  if (!state.live || state.play || state.quiz || state.setup || !state.view || state.view.is_over) return;
  const node = state.current;
  liveTimer = setTimeout(() => {
    if (node !== state.current || !state.live) return;
    const known = state.results.get(node);
    const lines = parseInt($("lines").value, 10), time = seconds("think-time", 0.05, 30);
    if (known && known.status !== "running" && known.lines >= lines && known.time >= time) { showAnalysis(); return; }
    if (state.job && state.job.node === node && ANALYSIS.has(state.job.purpose)) return;
    analyse("live");
  }, 250);
}

export async function analyse(purpose) {
  const lines = parseInt($("lines").value, 10), time = seconds("think-time", 0.05, 30);
  const body = { game: { start: state.tree.start, moves: state.tree.moves(state.current) }, engine: $("engine").value,
    time, top: lines };
  return startJob(purpose, "/api/search", body, state.current, { lines, time });
}
