// The review of the main line (patchsolve.review.analysis through /api/analyze):
// class marks on the moves it judged, a graph under the board with a dot per
// judged move coloured by its class (click to go there), each player's
// summary, the judged moves with "why?" (which goes to the position it
// explains), and the quiz: the mistakes as exercises played on the board,
// graded on the server, never changing the game.

import { drawBoard, drawCircle, drawGhosts, drawSelection } from "./board.js";
import { cancelJob, drawEvalBar, seconds, startJob } from "./engine.js";
import {
  $, CLASS_COLOUR, CLASS_MARK, PLAYER_FILL, api, app, escapeHtml, fmt, message, state, svgEl,
} from "./util.js";

const JUDGED = ["inaccuracy", "mistake", "blunder"];

export async function startReview() {
  const nodes = state.tree.mainLine();
  if (nodes.length < 2) { message("the main line has no moves to review", "error"); return; }
  $("practise").disabled = true;   // until this review has answered: the quiz is made of its moves
  await startJob("review", "/api/analyze", {
    game: { start: state.tree.start, moves: nodes.slice(1).map((id) => state.tree.node(id).move) },
    nodes: Math.round(seconds("review-nodes", 1000, 3000000)),
  }, null, { nodes });
}

// the review answered (or was stopped with the moves done so far)
export function showReview(data, nodes) {
  if (!data) { message("the review was stopped before it reviewed a move", "error"); return; }
  if (data.partial) message(`review stopped: the first ${data.moves.length} moves are reviewed`, "error");
  state.review = { data, nodes };
  state.marks = new Map();
  for (const m of data.moves) if (state.tree.has(nodes[m.number])) state.marks.set(nodes[m.number], m);
  const threshold = parseFloat($("threshold").value) || 0;
  const practisable = data.moves.some((m) => m.loss > threshold);
  $("practise").disabled = !practisable;
  $("practise").title = practisable ? "play the best move where the game lost the most"
    : `no move lost more than ${threshold} points: nothing to practise`;
  drawGraph();
  drawSummary();
  app.drawMoveList();
  drawEvalBar();
}

export function clearReview() {
  state.review = null;
  state.marks = new Map();
  $("review-graph").innerHTML = "";
  $("review-graph").hidden = true;
  $("review-text").innerHTML = "";
  $("practise").disabled = true;
  $("practise").title = "review the game first";
}

// -- the graph ------------------------------------------------------------------------------

const H = 150, LEFT = 34, RIGHT = 10, TOP = 10, BOTTOM = 22;

export function drawGraph() {
  const box = $("review-graph");
  if (!state.review) { box.hidden = true; return; }
  box.hidden = false;
  // drawn as wide as it is shown (a phone's 360 px, a laptop's 620), so its labels keep their size
  const W = Math.max(280, Math.round(box.clientWidth) || 640);
  const { data, nodes } = state.review;
  const margins = [data.start.margin0, ...data.moves.map((m) => m.margin0)];
  const n = data.moves.length;
  const amax = Math.max(10, ...margins.map(Math.abs));
  const inner = W - LEFT - RIGHT, step = inner / Math.max(1, n);
  const x = (k) => LEFT + k * step, y = (v) => TOP + (H - TOP - BOTTOM) * (0.5 - v / (2 * amax));
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img",
    "aria-label": "player 0's margin after each move of the review; dots are the judged moves" });
  svg.appendChild(svgEl("rect", { x: LEFT, y: TOP, width: inner, height: H - TOP - BOTTOM, fill: "#fbf9f4",
    stroke: "#bbb" }));
  for (const v of [amax, 0, -amax]) {
    svg.appendChild(svgEl("line", { x1: LEFT, x2: LEFT + inner, y1: y(v), y2: y(v), stroke: "#e3ddd0" }));
    svg.appendChild(svgEl("text", { x: LEFT - 4, y: y(v) + 4, "font-size": 10, "text-anchor": "end", fill: "#666" },
      v === 0 ? "0" : fmt(Math.round(v))));
  }
  const every = Math.max(1, Math.ceil(n / Math.max(4, Math.min(10, Math.floor(inner / 40)))));
  for (let k = 0; k <= n; k += every) {
    svg.appendChild(svgEl("text", { x: x(k), y: H - 6, "font-size": 10, "text-anchor": "middle", fill: "#666" }, k));
  }
  svg.appendChild(svgEl("polyline", { points: margins.map((v, k) => `${x(k)},${y(v)}`).join(" "), fill: "none",
    stroke: "#333", "stroke-width": 1.5 }));
  svg.appendChild(svgEl("line", { class: "cursor", x1: 0, x2: 0, y1: TOP, y2: H - BOTTOM, stroke: "#f0a000",
    "stroke-width": 2, visibility: "hidden" }));
  // a column per ply to click, then the dots on top
  for (let k = 0; k <= n; k++) {
    const col = svgEl("rect", { class: "ply-hit", x: x(k) - step / 2, y: TOP, width: step, height: H - TOP - BOTTOM,
      fill: "transparent" });
    col.dataset.ply = k;
    col.appendChild(svgEl("title", {}, k === 0 ? "the start" : tip(data.moves[k - 1])));
    svg.appendChild(col);
  }
  for (const m of data.moves) {
    if (!JUDGED.includes(m.class)) continue;
    const dot = svgEl("circle", { class: `dot ${m.class}`, cx: x(m.number), cy: y(m.margin0),
      r: m.class === "blunder" ? 6 : m.class === "mistake" ? 5 : 4, fill: CLASS_COLOUR[m.class],
      stroke: PLAYER_FILL[m.player], "stroke-width": 2 });
    dot.dataset.ply = m.number;
    dot.appendChild(svgEl("title", {}, tip(m)));
    svg.appendChild(dot);
  }
  svg.querySelectorAll("[data-ply]").forEach((el) => el.addEventListener("click", () => {
    const node = nodes[parseInt(el.dataset.ply, 10)];
    if (state.tree.has(node)) app.goTo(node);
  }));
  box.innerHTML = "";
  box.appendChild(svg);
  const legend = document.createElement("div");
  legend.className = "legend";
  legend.innerHTML = JUDGED.map((c) => `<span><i style="background:${CLASS_COLOUR[c]}"></i>${c} ${CLASS_MARK[c]}</span>`)
    .join(" ") + " <span>ring: the mover's colour</span>";
  box.appendChild(legend);
  markGraph();
}

// a phone turned, a window resized: the graph drawn again at its new width
window.addEventListener("resize", () => {
  const box = $("review-graph"), svg = box.querySelector("svg.graph");
  if (state.review && !box.hidden && svg && Math.abs(box.clientWidth - svg.viewBox.baseVal.width) > 40) drawGraph();
});

function tip(m) {
  return `${m.number}. player ${m.player}: ${m.move} (${m.class}${m.forced ? ", forced" : ""}), `
    + `lost ${m.loss.toFixed(1)} points; best ${m.best_move || "-"}`;
}

// the current position's ply on the graph, when it is on the reviewed line
export function markGraph() {
  const svg = $("review-graph").querySelector("svg");
  if (!svg || !state.review) return;
  const k = state.review.nodes.indexOf(state.current);
  const cursor = svg.querySelector("line.cursor");
  const col = svg.querySelector(`rect.ply-hit[data-ply="${k}"]`);
  svg.querySelectorAll("rect.ply-hit.current-ply").forEach((r) => r.classList.remove("current-ply"));
  if (k < 0 || !col) { cursor.setAttribute("visibility", "hidden"); return; }
  col.classList.add("current-ply");
  const cx = parseFloat(col.getAttribute("x")) + parseFloat(col.getAttribute("width")) / 2;
  cursor.setAttribute("x1", cx); cursor.setAttribute("x2", cx); cursor.setAttribute("visibility", "visible");
}

// -- the summary and the judged moves --------------------------------------------------------

// "1 blunder", "2 blunders"
function count(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

function drawSummary() {
  const { data, nodes } = state.review;
  const budget = data.budget && data.budget.text
    ? `<p class="budget">judged at ${escapeHtml(data.budget.text)} (one search a move: the same verdicts every time)</p>` : "";
  const lines = data.summary.map((s) =>
    `<li><span class="dot p${s.player}"></span>player ${s.player}: accuracy `
    + `${s.accuracy === null ? "-" : s.accuracy.toFixed(1)}, average loss ${s.average_loss.toFixed(2)} points; `
    + `${count(s.classes.inaccuracy, "inaccuracy", "inaccuracies")}, ${count(s.classes.mistake, "mistake", "mistakes")}, `
    + `${count(s.classes.blunder, "blunder", "blunders")}</li>`);
  const judged = data.moves.filter((m) => JUDGED.includes(m.class));
  const items = judged.map((m) =>
    `<li class="review-mistake ${m.class}" data-ply="${m.number}"><button class="linkish goto" data-ply="${m.number}">`
    + `${m.number}. player ${m.player}: ${escapeHtml(m.move)}${CLASS_MARK[m.class]}</button> `
    + `${m.class}, -${m.loss.toFixed(1)} points, -${(100 * m.win_loss).toFixed(0)}% win; best ${escapeHtml(m.best_move || "-")}`
    + `${m.proven_before === "win" && m.proven_after === "loss" ? "; threw away a proven win" : ""} `
    + `<button class="linkish why" data-ply="${m.number - 1}" data-move="${escapeHtml(m.move)}">why?</button></li>`);
  $("review-text").innerHTML = budget + `<ul class="summary">${lines.join("")}</ul>`
    + (items.length ? `<ul class="review-mistakes">${items.join("")}</ul>` : "<p>no move judged an inaccuracy or worse</p>")
    + `<pre id="why-text" class="why-text" aria-live="polite"></pre>`;
  $("review-text").querySelectorAll("button.goto").forEach((el) => el.addEventListener("click", () => {
    const node = nodes[parseInt(el.dataset.ply, 10)];
    if (state.tree.has(node)) app.goTo(node);
  }));
  $("review-text").querySelectorAll("button.why").forEach((el) => el.addEventListener("click", () =>
    explainMove(parseInt(el.dataset.ply, 10), el.dataset.move)));
}

// why? goes to the position before the move and explains the move there
async function explainMove(ply, move) {
  const node = state.review.nodes[ply];
  if (!state.tree.has(node)) { message("that position is no longer in the game", "error"); return; }
  await app.goTo(node);
  $("why-text").textContent = "explaining\u2026";
  try {
    // at the review's budget: the explanation's loss is the review's for the same move
    const nodes = state.review.data.budget && state.review.data.budget.nodes;
    const e = await api("/api/explain", { game: { start: state.tree.start, moves: state.tree.moves(node) }, move,
      ...(nodes ? { nodes } : {}) });
    if (state.current !== node) return;
    $("why-text").textContent = `move ${ply + 1}, ${move}, in the position shown:\n${e.text}`;
  } catch (err) { $("why-text").textContent = ""; message(err.message, "error"); }
}

// -- the quiz: exercises played on the board ---------------------------------------------------

export async function startQuiz() {
  if (!state.review) return;
  const player = $("practise-player").value;
  await startJob("quiz", "/api/quiz", {
    moves: state.review.data.moves, threshold: parseFloat($("threshold").value) || 0,
    player: player === "" ? null : parseInt(player, 10),
  });
}

export async function quizReady(result) {
  if (!result.exercises.length) { message("no move lost more than the threshold: nothing to practise"); return; }
  await cancelJob();   // no analysis gives the answer away
  state.quiz = { exercises: result.exercises, k: 0, found: 0, answered: 0, view: null, reveal: null, graded: false };
  $("quiz-bar").hidden = false;
  document.body.classList.add("quiz-on");
  await showExercise();
  $("quiz-bar").scrollIntoView({ block: "nearest" });
}

async function showExercise() {
  const q = state.quiz, e = q.exercises[q.k];
  const node = state.review.nodes[e.number - 1];
  // the board shows the exercise's position, drawn with the game's patches when the game still holds it
  const moves = state.tree.has(node) ? state.tree.moves(node) : null;
  q.view = moves ? await api("/api/game", { game: { start: state.tree.start, moves } })
    : await api("/api/game", { game: { start: e.position, moves: [] } });
  q.reveal = null;
  q.graded = false;
  state.selected = null;
  state.hover = null;
  $("quiz-title").textContent = `Exercise ${q.k + 1} of ${q.exercises.length}: move ${e.number}, player ${e.player} `
    + `to move. The game's ${e.played} lost ${e.played_loss.toFixed(1)} points: find a better move and play it on `
    + "the board.";
  $("quiz-result").textContent = "";
  $("quiz-score").textContent = `found ${q.found} of ${q.answered} answered`;
  app.showQuizBoard();
}

export async function gradeAnswer(move) {
  const q = state.quiz, e = q.exercises[q.k];
  $("quiz-result").textContent = `grading ${move}\u2026`;
  await startJob("grade", "/api/quiz/grade", { exercise: e, move }, null, { exercise: q.k });
}

export function showGrade(job, g) {
  const q = state.quiz;
  if (!q || job.exercise !== q.k) return;
  const e = q.exercises[q.k];
  if (!q.graded) { q.answered += 1; if (g.correct) q.found += 1; q.graded = true; }
  $("quiz-result").textContent = g.correct
    ? `found: ${g.move} is ${g.loss === 0 ? "the best" : `within ${g.loss.toFixed(1)} points of the best`} (${fmt(g.value)}, ${g.bound})`
    : `${g.move} loses ${g.loss.toFixed(1)} points (${fmt(g.value)} against ${fmt(e.best_value)}, ${g.bound}); try again or Show the answer`;
  $("quiz-result").className = "message " + (g.correct ? "ok" : "error");
  $("quiz-score").textContent = `found ${q.found} of ${q.answered} answered`;
  // the patch goes back to the hand; a move found is drawn where it was played
  state.selected = null;
  state.hover = null;
  if (g.correct) q.reveal = { move: g.move, label: fmt(g.value), kind: "best" };
  redrawQuiz();
}

export function showAnswer() {
  const q = state.quiz, e = q.exercises[q.k];
  q.reveal = { move: e.best, label: fmt(e.best_value), kind: "best" };
  if (!q.graded) { q.answered += 1; q.graded = true; }
  $("quiz-result").textContent = `best: ${e.best} (${fmt(e.best_value)}, ${e.bound}); line: ${e.pv.slice(0, 8).join(" ")}`;
  $("quiz-result").className = "message";
  $("quiz-score").textContent = `found ${q.found} of ${q.answered} answered`;
  drawGhosts();
}

export async function nextExercise() {
  const q = state.quiz;
  if (q.k + 1 >= q.exercises.length) {
    $("quiz-result").textContent = `done: found ${q.found} of ${q.exercises.length}`;
    return;
  }
  q.k += 1;
  await showExercise();
}

export function leaveQuiz() {
  state.quiz = null;
  $("quiz-bar").hidden = true;
  document.body.classList.remove("quiz-on");
  state.selected = null;
  app.showView(state.view);
}

export function redrawQuiz() {
  drawBoard(); drawCircle(); drawSelection(); drawEvalBar();
}
