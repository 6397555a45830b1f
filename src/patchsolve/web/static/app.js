// patchsolve's analysis board. The page holds the game as a tree of moves
// (tree.js): moves tried from an earlier position become variations beside
// the main line, and nothing is dropped without the player's say. The server
// keeps no game: every request carries the line to the position asked about
// (/api/game, /api/play). Analysis is the default; the engine plays a side
// only in a game the player asks for (Play against the engine).
// Modules: util (helpers, state), tree, board, engine, review (and the quiz), setup.

import {
  FLIP, ROTATE, drawBoard, drawCircle, drawGhosts, drawSelection, flashBoard, placeHeld, selectPatch, shownView,
  turnHeld,
} from "./board.js";
import {
  analyse, analysisDone, cancelJob, clearProgress, dropAnalysis, drawEvalBar, engineBusy, scheduleAnalysis,
  seconds, setLive, showAnalysis, startJob, stopJob, valueText,
} from "./engine.js";
import {
  clearReview, gradeAnswer, leaveQuiz, markGraph, nextExercise, quizReady, redrawQuiz, showAnswer, showGrade,
  showReview, startQuiz, startReview,
} from "./review.js";
import {
  SETUP_LOCKED, cancelSetup, flipSetup, pickLeather, rotateSetup, setupQuestions, startSetup, useSetup,
} from "./setup.js";
import { Tree } from "./tree.js";
import { $, CLASS_MARK, api, app, escapeHtml, message, setStatus, state } from "./util.js";

// -- the position shown -----------------------------------------------------------------

let navSeq = 0;   // a later navigation wins over an earlier one whose answer comes late

function line(node) { return { start: state.tree.start, moves: state.tree.moves(node) }; }

async function goTo(node) {
  if (state.setup) { message(SETUP_LOCKED, "error"); return; }
  if (!state.tree.has(node)) return;
  const seq = ++navSeq;
  const fromQuiz = !!state.quiz;
  if (fromQuiz) leaveQuiz();
  try {
    const view = await api("/api/game", { game: line(node) });
    if (seq !== navSeq || !state.tree.has(node)) return;
    if (node !== state.current || fromQuiz) { message(""); state.said = null; }
    state.current = node;
    showView(view);
  } catch (e) { message(e.message, "error"); }
}

function showView(view) {
  // a set-up ends only by Use this position or Cancel: a late answer must not throw it away
  if (state.setup) return;
  state.view = view;
  state.hover = null;
  state.preview = null;
  state.selected = view.pending_leather !== null ? { leather: true } : null;
  dropAnalysis();   // an analysis of another position gives way at once
  if (state.job && state.job.node !== null && state.job.node !== state.current) clearProgress();
  const map = $("map-view");
  if (map.dataset.node && map.dataset.node !== String(state.current)) { map.innerHTML = ""; delete map.dataset.node; }
  drawBoard();
  drawCircle();
  drawSelection();
  drawMoveList();
  showAnalysis();
  markGraph();
  drawStatus();
  scheduleAnalysis();
  maybeEngineMove();
}

function drawStatus() {
  const v = shownView(), tree = state.tree;
  const ply = tree.ply(state.current), end = tree.ply(tree.lineEnd(state.current));
  $("ply-info").textContent = state.quiz ? `the exercise: before move ${state.quiz.exercises[state.quiz.k].number}`
    : `move ${ply} of ${end}` + (tree.isMain(state.current) ? "" : " (a variation)");
  // the score if the game ended now is noise at the start (both about -160)
  const started = v.fields.time[0] + v.fields.time[1] > 0;
  if (v.is_over) setStatus(`Game over: ${v.outcome}`);
  else {
    setStatus(`Player ${v.to_move} to move` + (v.pending_leather !== null ? " (place the leather patch)" : "")
      + (started ? ` \u2014 score if the game ended now: ${v.scores[0]} / ${v.scores[1]}` : ""));
  }
  $("mode").textContent = state.play ? `playing level ${state.play.level}: the engine is player ${state.play.engine}`
    : state.quiz ? "quiz" : "analysis";
  $("promote").disabled = tree.isMain(state.current) || !!state.quiz;
  $("delete").disabled = state.current === 0 || !!state.quiz;
  $("undo").disabled = state.current === 0;
  $("first").disabled = state.current === 0;
  $("redo").disabled = tree.node(state.current).children.length === 0;
  $("last").disabled = $("redo").disabled;
}

// a new game tree (new game, set-up, load): analysis, nothing of the old game left on screen
function newTree(view, note, tree) {
  cancelJob();
  if (state.quiz) leaveQuiz();
  state.tree = tree || new Tree(view.start);
  state.current = tree ? state.tree.lineEnd(0) : 0;
  state.results = new Map();
  state.said = null;
  setPlay(null);
  clearReview();
  clearProgress();
  $("result").innerHTML = "";
  $("map-view").innerHTML = "";
  $("why-text") && ($("why-text").textContent = "");
  message(note || "", note ? "ok" : "");
  showView(view);
}

// -- moves -------------------------------------------------------------------------------------

// play `move` in the position shown: the child it reaches, a new variation
// when the position already has a continuation, never a lost move
async function play(move) {
  if (state.setup) { message(SETUP_LOCKED, "error"); return false; }
  if (state.quiz) { gradeAnswer(move); return false; }
  if (engineToMove()) { message("the engine is to move", "error"); return false; }
  const parent = state.current, mover = state.view.to_move;
  try {
    const view = await api("/api/play", { game: line(parent), move });
    if (state.current !== parent || state.setup) return false;
    const text = view.moves[view.moves.length - 1];
    const known = state.tree.childByMove(parent, text);
    const branches = state.tree.node(parent).children.length > 0;
    const node = state.tree.add(parent, text, mover);
    const ply = state.tree.ply(node);
    state.said = null;
    message(known !== null ? `${ply}. ${text} is in the game already: shown`
      : branches ? `${ply}. ${text}: a new variation (the main line is kept)` : `played ${ply}. ${text}`, "ok");
    state.current = node;
    showView(view);
    return true;
  } catch (e) {
    message(`refused: ${e.message}`, "error");
    flashBoard();
    return false;
  }
}

async function engineMoved(parent, move) {
  const mover = state.view.to_move;
  try {
    const view = await api("/api/play", { game: line(parent), move });
    if (state.current !== parent || state.setup) return;
    const text = view.moves[view.moves.length - 1];
    const node = state.tree.add(parent, text, mover);
    const said = `${state.tree.ply(node)}. ${text} (player ${mover})`;
    // two engine moves in a row are both named
    state.said = state.said && state.said.node === parent ? { text: `${state.said.text}, then ${said}`, node }
      : { text: `The engine (level ${state.play ? state.play.level : "?"}) played ${said}`, node };
    message(state.said.text, "ok");
    state.current = node;
    showView(view);
  } catch (e) { message(`the engine's move was refused: ${e.message}`, "error"); }
}

function walk() { if (!state.setup && !engineToMove()) play("walk"); }

// -- the move list -------------------------------------------------------------------------------

function chip(node) {
  const b = document.createElement("button");
  const mark = state.marks.get(node.id);
  const ply = state.tree.ply(node.id);
  b.type = "button";
  b.className = "mv" + (node.id === state.current ? " current" : "");
  b.dataset.node = node.id;
  b.tabIndex = node.id === state.current ? 0 : -1;
  const who = node.mover === null ? "" : `<span class="who p${node.mover}" aria-hidden="true"></span>`;
  const judged = mark && CLASS_MARK[mark.class];
  b.innerHTML = `<span class="num">${ply}.</span>${who}${escapeHtml(node.move)}`
    + (judged ? `<span class="mark ${mark.class}">${CLASS_MARK[mark.class]}</span>` : "");
  b.setAttribute("aria-label", `move ${ply}${node.mover === null ? "" : `, player ${node.mover}`}: ${node.move}`
    + (mark ? `, ${mark.class}` : ""));
  if (node.id === state.current) b.setAttribute("aria-current", "true");
  b.addEventListener("click", () => goTo(node.id));
  return b;
}

// `first` and its line (main continuations), each move's variations right after it
function fillLine(box, first) {
  const tree = state.tree;
  let node = first;
  box.appendChild(chip(node));
  while (node.children.length) {
    const next = tree.node(node.children[0]);
    box.appendChild(chip(next));
    for (const other of node.children.slice(1)) box.appendChild(variation(tree.node(other)));
    node = next;
  }
}

function variation(first) {
  const box = document.createElement("div");
  box.className = "variation";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", `variation from move ${state.tree.ply(first.id)}`);
  fillLine(box, first);
  return box;
}

function drawMoveList() {
  const list = $("move-list"), tree = state.tree, root = tree.node(0);
  list.innerHTML = "";
  const main = document.createElement("div");
  main.className = "line main";
  const start = document.createElement("button");
  start.type = "button";
  start.className = "mv start" + (state.current === 0 ? " current" : "");
  start.dataset.node = 0;
  start.tabIndex = state.current === 0 ? 0 : -1;
  start.textContent = "start";
  start.addEventListener("click", () => goTo(0));
  main.appendChild(start);
  if (root.children.length) {
    const first = tree.node(root.children[0]);
    main.appendChild(chip(first));
    for (const other of root.children.slice(1)) main.appendChild(variation(tree.node(other)));
    let node = first;
    while (node.children.length) {
      const next = tree.node(node.children[0]);
      main.appendChild(chip(next));
      for (const other of node.children.slice(1)) main.appendChild(variation(tree.node(other)));
      node = next;
    }
  }
  list.appendChild(main);
  // the current move in view inside the list (the page itself does not scroll)
  const current = list.querySelector(".mv.current");
  if (current) {
    const top = current.offsetTop, bottom = top + current.offsetHeight;   // the list is positioned: offsets are its own
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }
}

function back() { const n = state.tree.node(state.current); if (n.parent !== null) goTo(n.parent); }
function forward() { const n = state.tree.node(state.current); if (n.children.length) goTo(n.children[0]); }
function toStart() { goTo(0); }
function toEnd() { goTo(state.tree.lineEnd(state.current)); }

// up/down: the other moves tried in the same position
function sibling(step) {
  const n = state.tree.node(state.current);
  if (n.parent === null) return;
  const all = state.tree.node(n.parent).children, k = all.indexOf(n.id);
  const next = all[(k + step + all.length) % all.length];
  if (next !== n.id) goTo(next);
}

function promote() {
  if (state.tree.promote(state.current)) {
    showView(state.view);
    message("the variation is now the main line from where it branches", "ok");
  }
}

let deleteArmed = null;

async function deleteFromHere() {
  const node = state.current;
  if (node === 0) return;
  const count = state.tree.size(node);
  const button = $("delete");
  if (deleteArmed !== node) {   // nothing is lost without the player's say: a second click confirms
    deleteArmed = node;
    button.textContent = `Delete ${count} move${count === 1 ? "" : "s"}? Click again`;
    button.classList.add("armed");
    setTimeout(() => { if (deleteArmed === node) disarmDelete(); }, 4000);
    return;
  }
  disarmDelete();
  const parent = state.tree.node(node).parent;
  state.tree.remove(node);
  state.results.delete(node);
  await goTo(parent);
  message(`deleted ${count} move${count === 1 ? "" : "s"}`, "ok");
}

function disarmDelete() {
  deleteArmed = null;
  $("delete").textContent = "Delete from here";
  $("delete").classList.remove("armed");
}

// -- a game against the engine ------------------------------------------------------------------

function setPlay(play) {
  state.play = play;
  $("play-start").disabled = !!play;
  $("play-stop").disabled = !play;
  $("live").disabled = !!play;   // the engine plays: it does not also advise
  $("human-side").disabled = !!play;
  $("level").disabled = !!play;
  if (play && state.live) setLive(false);
}

function startPlaying() {
  if (state.setup) return;
  const human = parseInt($("human-side").value, 10);
  setPlay({ engine: 1 - human, level: parseInt($("level").value, 10) });
  message(`playing from here against level ${state.play.level}: you are player ${human}`, "ok");
  drawStatus();
  maybeEngineMove();
}

function stopPlaying() {
  if (state.job && state.job.purpose === "engine-move") cancelJob();
  setPlay(null);
  message("back to analysis", "ok");
  drawStatus();
}

// the engine is to move: a game is on, it is its side's turn, and the position shown ends its line
function engineToMove() {
  const v = state.view;
  return !!(state.play && v && !v.is_over && !state.quiz && !state.setup && v.to_move === state.play.engine
    && state.tree.node(state.current).children.length === 0);
}

function maybeEngineMove() {
  if (!engineToMove() || state.job !== null) return;
  const level = state.play.level;
  const body = { game: line(state.current), engine: $("engine").value, time: seconds("think-time", 0.05, 30), level };
  startJob("engine-move", "/api/search", body, state.current);
}

// -- when a job ends ---------------------------------------------------------------------------

async function jobDone(job, status) {
  const r = status.result;
  if (job.purpose === "live" || job.purpose === "hint") analysisDone(job, status);
  else if (job.purpose === "engine-move") {
    if (job.node === state.current && engineToMove() && r && r.best_move) await engineMoved(job.node, r.best_move);
  } else if (job.purpose === "review") showReview(r, job.nodes);
  else if (job.purpose === "quiz") {
    if (r) await quizReady(r);
    else message(`making the exercises was ${status.status} before it finished: try again`, "error");
  } else if (job.purpose === "grade") {
    if (r) showGrade(job, r);
    else if (state.quiz) $("quiz-result").textContent = `the grading was ${status.status} before it finished: try again`;
  }
}

function engineFree() {
  if (state.setup) return;
  scheduleAnalysis();
  maybeEngineMove();
}

// -- the quiz's board ---------------------------------------------------------------------------

function showQuizBoard() {
  state.preview = null;
  $("result").innerHTML = "";
  clearProgress();
  redrawQuiz();
  drawStatus();
}

// -- load, save, new game ------------------------------------------------------------------------

async function load() {
  try {
    const data = await api("/api/load", { text: $("io").value });
    newTree(data, "loaded", Tree.fromDict(data.tree));
  } catch (e) { message(`cannot load: ${e.message}`, "error"); }
}

async function record() {
  return (await api("/api/record", { tree: state.tree.toDict() })).record;
}

async function download() {
  try {
    const blob = new Blob([await record()], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "patchsolve-game.txt";
    a.click();
    URL.revokeObjectURL(a.href);
  } catch (e) { message(e.message, "error"); }
}

async function newGame() {
  try {
    const view = await api("/api/new", { seed: parseInt($("seed").value, 10) || 0 });
    newTree(view, "");
  } catch (e) { message(e.message, "error"); }
}

async function showMap() {
  if (state.setup) { message(SETUP_LOCKED, "error"); return; }
  const node = state.current;
  try {
    const m = await api("/api/map", { game: line(node) });
    if (state.current !== node) return;   // the page has moved on: a map of another position
    $("map-view").dataset.node = String(node);
    $("map-view").innerHTML = m.svg
      + `<small>at move ${state.tree.ply(node)}: expected empty squares `
      + `${m.expected_empty.map((x) => x.toFixed(1)).join(" / ")} (${m.samples} greedy continuations)</small>`;
  } catch (e) { message(e.message, "error"); }
}

// -- wiring ---------------------------------------------------------------------------------------

function onKey(e) {
  if (["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
  if (e.target.tagName === "TR" && e.key === "Enter") return;
  const key = e.key;
  if (state.setup) {
    if (key === "r" || key === "R") rotateSetup();
    else if (key === "f" || key === "F") flipSetup();
    return;
  }
  const actions = {
    r: () => turnHeld(ROTATE), R: () => turnHeld(ROTATE), f: () => turnHeld(FLIP), F: () => turnHeld(FLIP),
    w: walk, W: walk, ArrowLeft: back, ArrowRight: forward, ArrowUp: () => sibling(-1),
    ArrowDown: () => sibling(1), Home: toStart, End: toEnd,
    Escape: () => { state.selected = null; state.preview = null; drawSelection(); drawCircle(); drawBoard(); },
  };
  if (!actions[key]) return;
  if (state.quiz && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(key)) return;
  e.preventDefault();
  actions[key]();
}

function wire() {
  const on = (id, fn) => $(id).addEventListener("click", fn);
  on("rotate", () => state.setup ? rotateSetup() : turnHeld(ROTATE));
  on("flip", () => state.setup ? flipSetup() : turnHeld(FLIP));
  on("place", placeHeld);
  on("walk", walk);
  on("first", toStart);
  on("undo", back);
  on("redo", forward);
  on("last", toEnd);
  on("promote", promote);
  on("delete", deleteFromHere);
  on("new-game", newGame);
  on("live", () => setLive(!state.live));
  on("best", () => {
    if (state.setup) { message(SETUP_LOCKED, "error"); return; }
    if (state.view.is_over) { message("the game is over", "error"); return; }
    if (state.quiz) { message("not during the quiz", "error"); return; }
    if (engineBusy()) { message("the engine is busy; wait or Stop", "error"); return; }
    if (parseFloat($("think-time").value) > 30) message("think time capped at 30 s (the server's limit)", "error");
    state.results.delete(state.current);
    analyse("hint");
  });
  on("stop", stopJob);
  on("map", showMap);
  on("play-start", startPlaying);
  on("play-stop", stopPlaying);
  on("review", startReview);
  on("practise", startQuiz);
  on("quiz-answer", showAnswer);
  on("quiz-next", nextExercise);
  on("quiz-leave", leaveQuiz);
  on("load", load);
  on("show-position", () => { $("io").value = shownView().position; });
  on("show-record", async () => { try { $("io").value = await record(); } catch (e) { message(e.message, "error"); } });
  on("download", download);
  on("setup-start", startSetup);
  on("setup-cancel", cancelSetup);
  on("setup-use", useSetup);
  on("setup-leather", pickLeather);
  for (const id of ["setup-time0", "setup-time1"]) {
    for (const kind of ["input", "change"]) $(id).addEventListener(kind, setupQuestions);
  }
  for (const id of ["lines", "think-time", "engine"]) $(id).addEventListener("change", scheduleAnalysis);
  $("move-input").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const move = $("move-input").value.trim();
    if (move) play(move).then((ok) => { if (ok) $("move-input").value = ""; });
  });
  document.addEventListener("keydown", onKey);
  // what kind of pointer acts decides hover-or-tap: a finger previews first, a mouse hovers
  document.addEventListener("pointerdown", (e) => { state.pointer = e.pointerType || "mouse"; }, true);
}

Object.assign(app, {
  goTo, play, showView, newTree, drawMoveList, engineToMove, engineFree, jobDone, leaveQuiz, showQuizBoard, valueText,
});

// for tests and the console
window.patchsolve = { state, app, Tree, drawEvalBar, drawGhosts };

async function init() {
  wire();
  // a page closed or reloaded leaves the engine free for the next one
  window.addEventListener("pagehide", () => {
    const job = state.job;
    if (job && job.id !== null) {
      fetch(`/api/jobs/${job.id}/stop`, { method: "POST", keepalive: true,
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ discard: true }) });
    }
  });
  try {
    state.patches = (await api("/api/patches")).patches;
    newTree(await api("/api/game", { game: { start: null, moves: [] } }), "");
  } catch (e) { setStatus(`cannot reach the server: ${e.message}`); }
}

init();
