// Set up the position on your table: paint the patches into the quilts
// (tap or click a square: the patch is laid with that square under the
// pointer), fill in what the table shows, and the server checks it all
// (/api/setup). While a set-up is on screen the game is hidden and its
// controls are locked; a set-up ends by "Use this position" (a new game from
// it, to analyse: no engine player) or "Cancel".

import { FLIP, ROTATE, anchorOf, cellKey, shapeSvg, turned } from "./board.js";
import { cancelJob, clearProgress } from "./engine.js";
import { $, api, app, message, setStatus, squareName, state, svgEl } from "./util.js";

export const SETUP_LOCKED = "finish the set-up first: Use this position, or Cancel";

// every control that would act on the hidden game
const GAME_CONTROLS = ["best", "live", "walk", "undo", "redo", "first", "last", "new-game", "review", "load",
  "show-position", "show-record", "download", "map", "practise", "play-start", "promote", "delete", "move-input"];

export function lockGame(on) {
  for (const id of GAME_CONTROLS) {
    const el = $(id);
    if (on) { el.dataset.was = el.disabled ? "1" : ""; el.dataset.title = el.title; }
    el.disabled = on || el.dataset.was === "1";
    el.title = on ? SETUP_LOCKED : (el.dataset.title ?? el.title);
    if (!on) { delete el.dataset.was; }
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

export async function startSetup() {
  await cancelJob();
  if (state.quiz) app.leaveQuiz();
  const v = state.view, f = v.fields;
  const { placed, unnamed } = piecesOf(v);
  state.setup = { placed, pick: null, hover: null };
  state.selected = null;
  $("setup-circle").value = f.circle.join(",");
  $("setup-edition").value = f.edition;
  ["buttons", "time"].forEach((k) => { $(`setup-${k}0`).value = f[k][0]; $(`setup-${k}1`).value = f[k][1]; });
  $("setup-form").hidden = false;
  for (const id of ["setup-use", "setup-cancel", "setup-leather"]) $(id).disabled = false;
  $("setup-start").disabled = true;
  $("result").innerHTML = "";
  clearProgress();
  message("");
  lockGame(true);
  document.body.classList.add("setup-on");
  setStatus("Setting up a position: paint the quilts, fill in the form, then Use this position");
  setupMessage(unnamed ? `${unnamed} covered squares of the position shown name no patch: lay those patches again` : "",
    unnamed ? "error" : "");
  drawSetup();
  // the answers of the position shown (drawSetup has just shown the questions that apply)
  $("setup-on-top").value = f.on_top === null ? "" : String(f.on_top);
  $("setup-bonus").value = f.bonus_owner === null ? "" : String(f.bonus_owner);
  $("setup-form").scrollIntoView({ block: "nearest" });
}

function setupMessage(text, kind) {
  $("setup-message").textContent = text;
  $("setup-message").className = "message" + (kind ? " " + kind : "");
}

export function cancelSetup() {
  state.setup = null;
  endSetupControls();
  app.showView(state.view);
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
export function setupQuestions() {
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
    svg.appendChild(svgEl("text", { x: x0 + i * cell + cell / 2, y: y0 + 9 * cell + 11, "font-size": 9,
      "text-anchor": "middle", fill: "#777" }, "abcdefghi"[i]));
    svg.appendChild(svgEl("text", { x: x0 - 4, y: y0 + i * cell + cell / 2 + 3, "font-size": 9,
      "text-anchor": "end", fill: "#777" }, String(i + 1)));
  }
}

// where a piece goes when `sq` is tapped: its anchor square (the one nearest its centre) on `sq`
function cornerFor(piece, sq) {
  const [ar, ac] = anchorOf(pieceCells(piece));
  return [Math.floor(sq / 9) - ar, (sq % 9) - ac];
}

function drawSetup() {
  const geo = state.view.geometry, [x0, y0] = geo.quilt, cell = geo.cell;
  const board = $("board");
  for (const part of board.querySelectorAll(".track, .next")) { part.innerHTML = ""; part.hidden = true; }
  board.querySelectorAll(".quilt").forEach((box, p) => {
    const svg = svgEl("svg", { viewBox: `0 0 ${x0 + 9 * cell + 8} ${y0 + 9 * cell + 16}`,
      width: x0 + 9 * cell + 8, height: y0 + 9 * cell + 16 });
    svg.appendChild(svgEl("rect", { width: "100%", height: "100%", fill: "#fff" }));
    const title = svgEl("text", { x: x0, y: 30, "font-weight": "bold", class: "setup-title" },
      `Player ${p}: ${state.setup.placed[p].length} pieces`);
    title.dataset.player = p;
    svg.appendChild(title);
    const owner = coveredBy(p);
    for (let sq = 0; sq < 81; sq++) {
      const x = x0 + (sq % 9) * cell, y = y0 + Math.floor(sq / 9) * cell;
      const piece = owner[sq] === undefined ? null : state.setup.placed[p][owner[sq]];
      const rect = svgEl("rect", { x, y, width: cell, height: cell, stroke: "#999", class: "setup-sq",
        fill: piece ? (piece.leather ? "#8c5a2b" : state.patches[piece.patch].colour) : "#f3ede2" });
      rect.dataset.player = p; rect.dataset.square = sq;
      rect.addEventListener("click", () => setupClick(p, sq));
      rect.addEventListener("pointerenter", (e) => {
        if ((e.pointerType || "mouse") === "mouse") { state.setup.hover = [p, sq]; drawSetupGhost(); }
      });
      svg.appendChild(rect);
      if (piece && !piece.leather) {        // the patch's symbol, as on the board and in board text
        svg.appendChild(svgEl("text", { x: x + cell / 2, y: y + cell / 2 + 4, "font-size": 10,
          "text-anchor": "middle", "pointer-events": "none" }, state.patches[piece.patch].symbol));
      }
    }
    coordinates(svg, x0, y0, cell);
    svg.appendChild(svgEl("g", { class: "setup-ghost" }));
    box.innerHTML = "";
    box.appendChild(svg);
  });
  drawSetupCatalogue();
  setupQuestions();
}

function drawSetupGhost() {
  document.querySelectorAll("#board g.setup-ghost").forEach((g) => { g.innerHTML = ""; });
  const s = state.setup;
  if (!s || !s.pick || !s.hover) return;
  const [p, sq] = s.hover, geo = state.view.geometry, [x0, y0] = geo.quilt, cell = geo.cell;
  const g = document.querySelectorAll("#board g.setup-ghost")[p];
  const owner = coveredBy(p);
  const [r0, c0] = cornerFor(s.pick, sq);
  const cells = pieceCells(s.pick).map(([r, c]) => [r0 + r, c0 + c]);
  const fits = cells.every(([r, c]) => r >= 0 && c >= 0 && r <= 8 && c <= 8 && owner[r * 9 + c] === undefined);
  for (const [r, c] of cells) {
    if (r < 0 || c < 0 || r > 8 || c > 8) continue;
    g.appendChild(svgEl("rect", { x: x0 + c * cell + 2, y: y0 + r * cell + 2, width: cell - 4, height: cell - 4,
      fill: fits ? "rgba(40,120,200,0.5)" : "rgba(200,0,30,0.45)", "pointer-events": "none" }));
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
  if (!s.pick) { setupMessage("pick a patch (in the catalogue) or the leather patch first", "error"); return; }
  const [r0, c0] = cornerFor(s.pick, sq);
  for (const [r, c] of pieceCells(s.pick)) {
    const rr = r0 + r, cc = c0 + c;
    if (rr < 0 || cc < 0 || rr > 8 || cc > 8 || owner[rr * 9 + cc] !== undefined) {
      setupMessage(`it does not fit with ${squareName(sq)} under it`, "error");
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

export function pickLeather() {
  state.setup.pick = { leather: true };
  drawSetupCatalogue();
}

function drawSetupCatalogue() {
  const box = $("circle");
  box.innerHTML = "";
  $("circle-title").innerHTML = "Catalogue <small>(pick a patch to lay it; greyed: in a quilt)</small>";
  const pick = state.setup.pick;
  $("selection").textContent = !pick ? "Set-up: pick a patch in the catalogue, or the leather patch."
    : pick.leather ? "Set-up: the leather patch \u2014 tap or click a square."
    : `Set-up: patch ${pick.patch} (${state.patches[pick.patch].name}), orientation ${pick.orientation} \u2014 `
      + "tap or click where it goes (Rotate/Flip turn it).";
  if (pick && !pick.leather) {
    $("selection").prepend(shapeSvg(state.patches[pick.patch].orientations[pick.orientation],
      state.patches[pick.patch].colour, 10));
  }
  const laid = new Set(state.setup.placed.flat().filter((x) => !x.leather).map((x) => x.patch));
  for (const p of state.patches) {
    const card = document.createElement("button");
    card.className = "patch-card buyable" + (laid.has(p.id) ? " unaffordable" : "");
    card.dataset.patch = p.id;
    card.setAttribute("aria-label", `lay patch ${p.id}`);
    if (pick && pick.patch === p.id) card.classList.add("selected");
    card.appendChild(shapeSvg(p.orientations[0], p.colour, 7));
    const label = document.createElement("div");
    label.textContent = `${p.id} \u00b7 ${p.buttons}/${p.time}/${p.income}`;
    card.appendChild(label);
    if (laid.has(p.id)) card.disabled = true;
    else card.addEventListener("click", () => { state.setup.pick = { patch: p.id, orientation: 0 }; drawSetupCatalogue(); });
    box.appendChild(card);
  }
}

export function turnSetupPick(transform) {
  const pick = state.setup.pick;
  if (!pick || pick.leather) return;
  pick.orientation = turned(pick.patch, pick.orientation, transform);
  drawSetupCatalogue();
  drawSetupGhost();
}

export const rotateSetup = () => turnSetupPick(ROTATE);
export const flipSetup = () => turnSetupPick(FLIP);

export async function useSetup() {
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
    app.newTree(view, "position set up: analyse it, or play from here");
  } catch (e) {
    setupMessage(`refused: ${e.message}`, "error");
  }
}

function endSetupControls() {
  $("setup-form").hidden = true;
  for (const id of ["setup-use", "setup-cancel", "setup-leather"]) $(id).disabled = true;
  $("setup-start").disabled = false;
  $("setup-message").textContent = "";
  document.body.classList.remove("setup-on");
  lockGame(false);
}
