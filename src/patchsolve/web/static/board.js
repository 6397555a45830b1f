// The board: the server's drawing in parts (each quilt, the time board, the
// next patches), laid out by the stylesheet for the screen, with the page's
// own layers on top: the squares of the mover's quilt as click/tap targets,
// the patch held (drawn with the square under the pointer inside it, not at
// its corner), and a ghost of a move: the engine's best move, or a ranked
// row being previewed, with its value (a walk is marked on the time board).

import { $, COLS, PLAYER_FILL, app, message, squareName, state, svgEl } from "./util.js";

// the position the board shows: an exercise during the quiz, else the node shown
export function shownView() { return state.quiz && state.quiz.view ? state.quiz.view : state.view; }

export function drawBoard() {
  const v = shownView();
  const board = $("board");
  const quilts = board.querySelectorAll(".quilt");
  quilts.forEach((box, p) => {
    box.innerHTML = v.parts.quilts[p];
    box.classList.toggle("to-move", v.to_move === p);
  });
  board.querySelector(".track").innerHTML = v.parts.track;
  board.querySelector(".next").innerHTML = v.parts.next;
  for (const part of board.querySelectorAll(".track, .next")) part.hidden = false;
  const track = board.querySelector(".track svg");
  track.appendChild(svgEl("g", { id: "ghost-walk" }));
  if (v.is_over) return;
  // the next patches drawn under the time board can be picked there (the circle may be below the fold)
  board.querySelectorAll(".next g.next-patch").forEach((g) => {
    g.style.cursor = "pointer";
    g.setAttribute("role", "button");
    g.setAttribute("aria-label", `hold patch ${g.dataset.patch}`);
    g.addEventListener("click", () => selectPatch(parseInt(g.dataset.patch, 10)));
  });
  const svg = quilts[v.to_move].querySelector("svg");
  svg.appendChild(svgEl("g", { id: "ghost-best" }));
  svg.appendChild(svgEl("g", { id: "ghost" }));
  const [x0, y0] = v.geometry.quilt, cell = v.geometry.cell;
  const hits = svgEl("g", { class: "hits" });
  for (let sq = 0; sq < 81; sq++) {
    const r = svgEl("rect", {
      x: x0 + (sq % 9) * cell, y: y0 + Math.floor(sq / 9) * cell, width: cell, height: cell,
      fill: "transparent", class: "sq",
    });
    r.dataset.square = sq;
    r.dataset.player = v.to_move;
    r.addEventListener("pointerenter", (e) => {
      if ((e.pointerType || "mouse") !== "mouse") return;   // a finger has no hover: a tap previews
      state.hover = sq; drawHeld();
    });
    r.addEventListener("pointerleave", (e) => {
      if ((e.pointerType || "mouse") === "mouse" && state.hover === sq) { state.hover = null; drawHeld(); }
    });
    r.addEventListener("click", () => clickSquare(sq));
    hits.appendChild(r);
  }
  svg.appendChild(hits);
  drawHeld();
  drawGhosts();
}

// -- the patch held -------------------------------------------------------------------

export function heldCells() {
  const s = state.selected;
  if (!s) return null;
  if (s.leather) return [[0, 0]];
  return state.patches[s.patch].orientations[s.o];
}

// the cell of a shape nearest its centre: the one drawn under the pointer
export function anchorOf(cells) {
  const cr = cells.reduce((a, c) => a + c[0], 0) / cells.length;
  const cc = cells.reduce((a, c) => a + c[1], 0) / cells.length;
  let best = cells[0], dist = Infinity;
  for (const [r, c] of cells) {
    const d = (r - cr) ** 2 + (c - cc) ** 2;
    if (d < dist - 1e-9) { best = [r, c]; dist = d; }
  }
  return best;
}

// the patch held with its anchor on `sq`: its squares and its move text
// (null when its top-left corner would be off the quilt)
export function placementAt(sq) {
  const cells = heldCells();
  if (!cells) return null;
  const [ar, ac] = anchorOf(cells);
  const r0 = Math.floor(sq / 9) - ar, c0 = (sq % 9) - ac;
  const squares = cells.map(([r, c]) => [r0 + r, c0 + c]);
  const inside = r0 >= 0 && c0 >= 0;
  const s = state.selected;
  const corner = inside ? squareName(r0 * 9 + c0) : null;
  const move = !inside ? null : s.leather ? `leather@${corner}` : `${s.patch}:${s.o}@${corner}`;
  return { move, squares };
}

function drawHeld() {
  const ghost = document.getElementById("ghost");
  if (!ghost) return;
  ghost.innerHTML = "";
  const v = shownView();
  const place = state.hover === null ? null : placementAt(state.hover);
  const legal = !!(place && place.move && v.legal.includes(place.move));
  $("place").hidden = !(place && state.pointer !== "mouse");
  $("place").disabled = !legal;
  if (!place) return;
  const [x0, y0] = v.geometry.quilt, cell = v.geometry.cell;
  for (const [r, c] of place.squares) {
    if (r < 0 || c < 0 || r > 8 || c > 8) continue;
    ghost.appendChild(svgEl("rect", {
      x: x0 + c * cell + 1, y: y0 + r * cell + 1, width: cell - 2, height: cell - 2,
      fill: legal ? "rgba(40,160,60,0.55)" : "rgba(200,0,30,0.45)", "pointer-events": "none",
    }));
  }
  // the square under the pointer, outlined even when the patch does not fit there, so a refusal shows
  const sq = state.hover;
  ghost.appendChild(svgEl("rect", {
    x: x0 + (sq % 9) * cell + 1, y: y0 + Math.floor(sq / 9) * cell + 1, width: cell - 2, height: cell - 2,
    fill: "none", "stroke-width": 2, stroke: legal ? "#1e7a32" : "#b00020",
    class: legal ? "anchor" : "anchor refused", "pointer-events": "none",
  }));
}

function clickSquare(sq) {
  if (app.engineToMove()) { message("the engine is to move", "error"); return; }
  if (!state.selected) {
    message("choose a patch first (one of the three next patches), or walk", "error");
    return;
  }
  // a finger cannot hover: the first tap shows where the patch would go, a second tap there lays it
  if (state.pointer !== "mouse" && state.hover !== sq) { state.hover = sq; drawHeld(); return; }
  state.hover = sq;
  placeHeld();
}

export function placeHeld() {
  const place = state.hover === null ? null : placementAt(state.hover);
  if (!place) return;
  if (!place.move) {
    message(`refused: the patch does not fit with that square under it (its corner would be off the quilt)`, "error");
    flashBoard();
    return;
  }
  app.play(place.move);   // the server is the judge: an illegal placement is refused with its reason
}

export function flashBoard() {
  const b = $("board");
  b.classList.add("refused");
  setTimeout(() => b.classList.remove("refused"), 600);
}

// -- choosing and turning a patch ------------------------------------------------------

export function selectPatch(id) {
  const v = shownView();
  if (state.setup || v.is_over) return;
  if (v.pending_leather !== null) { message("place the leather patch first", "error"); return; }
  if (!v.fields.circle.slice(0, 3).includes(id)) { message(`patch ${id} is not one of the next three`, "error"); return; }
  const p = state.patches[id];
  if (p.buttons > v.fields.buttons[v.to_move]) {
    message(`patch ${id} costs ${p.buttons} buttons; player ${v.to_move} has ${v.fields.buttons[v.to_move]}`, "error");
    return;
  }
  state.selected = { patch: id, o: 0 };
  message("");
  drawCircle(); drawSelection(); drawHeld();
}

export function cellKey(cells) {
  const r0 = Math.min(...cells.map((c) => c[0])), c0 = Math.min(...cells.map((c) => c[1]));
  return cells.map(([r, c]) => `${r - r0},${c - c0}`).sort().join(" ");
}

// the orientation of `patch` that is orientation `o` turned by `transform`
export function turned(patch, o, transform) {
  const all = state.patches[patch].orientations;
  const want = cellKey(all[o].map(transform));
  const k = all.findIndex((cells) => cellKey(cells) === want);
  return k >= 0 ? k : o;
}

export const ROTATE = ([r, c]) => [c, -r];
export const FLIP = ([r, c]) => [r, -c];

export function turnHeld(transform) {
  const s = state.selected;
  if (!s || s.leather) return;
  s.o = turned(s.patch, s.o, transform);
  drawSelection(); drawHeld();
}

export function drawSelection() {
  const s = state.selected, el = $("selection");
  el.innerHTML = "";
  if (state.quiz && !s) { el.textContent = "Play your answer on the board: pick a patch, or walk."; return; }
  if (!s) { el.textContent = "Choose one of the three next patches, or walk."; return; }
  if (s.leather) { el.textContent = "Place the leather patch: click or tap a free square."; return; }
  const p = state.patches[s.patch];
  el.appendChild(shapeSvg(p.orientations[s.o], p.colour, 10));
  const how = state.pointer === "mouse" ? "click where it goes" : "tap where it goes, then tap again or Place";
  el.appendChild(document.createTextNode(
    ` patch ${s.patch} (${p.name}), orientation ${s.o}: cost ${p.buttons}, time ${p.time}, income ${p.income} \u2014 ${how}`));
}

export function shapeSvg(cells, colour, size) {
  const h = Math.max(...cells.map((c) => c[0])) + 1, w = Math.max(...cells.map((c) => c[1])) + 1;
  const svg = svgEl("svg", { width: w * size, height: h * size, "aria-hidden": "true" });
  for (const [r, c] of cells) {
    svg.appendChild(svgEl("rect", { x: c * size, y: r * size, width: size, height: size, fill: colour,
      stroke: "#333", "stroke-width": "0.5" }));
  }
  return svg;
}

export function drawCircle() {
  const v = shownView();
  $("circle-title").innerHTML = "Circle <small>(from the neutral token; the first three can be bought)</small>";
  const box = $("circle");
  box.innerHTML = "";
  const buttons = v.fields.buttons[v.to_move ?? 0];
  v.fields.circle.forEach((id, i) => {
    const p = state.patches[id];
    const buyable = i < 3 && !v.is_over;
    const card = document.createElement(buyable ? "button" : "div");
    card.className = "patch-card";
    card.dataset.patch = id;
    card.title = `${id} ${p.name}: cost ${p.buttons}, time ${p.time}, income ${p.income}`;
    if (buyable) {
      card.classList.add("buyable");
      card.setAttribute("aria-label", `hold patch ${id}: cost ${p.buttons}, time ${p.time}, income ${p.income}`);
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

// -- the ghost of a move: the best move, or a ranked row previewed --------------------------

const MOVE_RE = /^(\d+):(\d+)@([a-i])([1-9])$/;
const LEATHER_RE = /^leather@([a-i])([1-9])$/;

// the squares a move covers, or null for a walk
export function moveSquares(move) {
  let m = MOVE_RE.exec(move);
  if (m) {
    const patch = state.patches[parseInt(m[1], 10)];
    const cells = patch && patch.orientations[parseInt(m[2], 10)];
    if (!cells) return [];
    const r0 = parseInt(m[4], 10) - 1, c0 = COLS.indexOf(m[3]);
    return cells.map(([r, c]) => [r0 + r, c0 + c]);
  }
  m = LEATHER_RE.exec(move);
  if (m) return [[parseInt(m[2], 10) - 1, COLS.indexOf(m[1])]];
  return null;
}

function patchOf(move) {
  const m = MOVE_RE.exec(move);
  return m ? state.patches[parseInt(m[1], 10)] : null;
}

// what the ghost layer shows: a row previewed, else the answer revealed in the
// quiz, else the engine's best move in the position shown (never during the quiz)
function ghostMove() {
  if (state.preview) return state.preview;
  if (state.quiz) return state.quiz.reveal || null;
  const a = state.results.get(state.current);
  const r = a && a.result;
  if (!r || !r.best_move) return null;
  return { move: r.best_move, label: app.valueText(r), kind: "best" };
}

export function drawGhosts() {
  const quilt = document.getElementById("ghost-best"), walk = document.getElementById("ghost-walk");
  if (quilt) quilt.innerHTML = "";
  if (walk) walk.innerHTML = "";
  const g = ghostMove(), v = shownView();
  if (!g || v.is_over) return;
  const squares = moveSquares(g.move);
  if (squares === null) { if (walk) drawWalk(walk, v, g); return; }
  if (!quilt) return;
  const [x0, y0] = v.geometry.quilt, cell = v.geometry.cell;
  const patch = patchOf(g.move);
  const colour = patch ? patch.colour : "#8c5a2b";
  const group = svgEl("g", { class: `move-ghost ${g.kind}`, "data-move": g.move, "pointer-events": "none" });
  for (const [r, c] of squares) {
    group.appendChild(svgEl("rect", {
      x: x0 + c * cell + 2, y: y0 + r * cell + 2, width: cell - 4, height: cell - 4, fill: colour,
      "fill-opacity": g.kind === "best" ? 0.55 : 0.4, stroke: "#111", "stroke-width": 1.5,
      "stroke-dasharray": g.kind === "best" ? "" : "3 2",
    }));
  }
  const cr = squares.reduce((a, s) => a + s[0], 0) / squares.length;
  const cc = squares.reduce((a, s) => a + s[1], 0) / squares.length;
  label(group, x0 + (cc + 0.5) * cell, y0 + (cr + 0.5) * cell, g.label);
  quilt.appendChild(group);
}

function label(group, x, y, text) {
  if (!text) return;
  const w = 7 * text.length + 8;
  group.appendChild(svgEl("rect", { x: x - w / 2, y: y - 9, width: w, height: 16, rx: 4, fill: "#fff",
    "fill-opacity": 0.9, stroke: "#111" }));
  group.appendChild(svgEl("text", { x, y: y + 3, "font-size": 11, "text-anchor": "middle",
    "font-family": "sans-serif", "font-weight": "bold", class: "ghost-value" }, text));
}

// a walk: an arrow on the time board from the mover's token to the space in front of the other's
function drawWalk(layer, v, g) {
  const geo = v.geometry, mover = v.to_move, t = v.fields.time;
  const dest = Math.min(t[1 - mover] + 1, 53);
  const at = (s) => [geo.track[0] + (s % geo.per_row) * geo.space + geo.space / 2,
    geo.track[1] + Math.floor(s / geo.per_row) * geo.row + geo.space / 2];
  const [x1, y1] = at(t[mover]), [x2, y2] = at(dest);
  const group = svgEl("g", { class: `move-ghost walk ${g.kind}`, "data-move": "walk", "pointer-events": "none" });
  group.appendChild(svgEl("path", {
    d: `M ${x1} ${y1 - 10} Q ${(x1 + x2) / 2} ${Math.min(y1, y2) - 30} ${x2} ${y2 - 10}`,
    fill: "none", stroke: PLAYER_FILL[mover], "stroke-width": 3, "stroke-dasharray": g.kind === "best" ? "" : "4 3",
  }));
  group.appendChild(svgEl("circle", { cx: x2, cy: y2, r: 9, fill: PLAYER_FILL[mover], "fill-opacity": 0.45,
    stroke: "#111" }));
  label(group, (x1 + x2) / 2, Math.min(y1, y2) - 12, `walk ${g.label || ""}`.trim());
  layer.appendChild(group);
}
