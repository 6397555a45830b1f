// Small helpers every module of the page shares: the DOM, the JSON API,
// numbers in words, the page's state and the functions app.js registers.

export const SVGNS = "http://www.w3.org/2000/svg";
export const COLS = "abcdefghi";
export const PLAYER_FILL = ["#4e79a7", "#e15759"];   // render._PLAYER_FILL
export const CLASS_COLOUR = { inaccuracy: "#d4a000", mistake: "#e06c00", blunder: "#c00000" };
export const CLASS_MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };

export const $ = (id) => document.getElementById(id);

export function svgEl(tag, attrs = {}, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

export function squareName(sq) { return COLS[sq % 9] + (Math.floor(sq / 9) + 1); }

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function api(path, body) {
  const opts = body === undefined ? {} :
    { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const resp = await fetch(path, opts);
  let data;
  try { data = await resp.json(); } catch (e) { data = { error: `bad answer (${resp.status})` }; }
  if (!resp.ok) { const err = new Error(data.error || `error ${resp.status}`); err.status = resp.status; throw err; }
  return data;
}

// a signed number: +3, -1.5, 0
export function fmt(x) {
  if (x === null || x === undefined) return "?";
  const s = Number.isInteger(x) ? String(x) : x.toFixed(1);
  return x > 0 ? "+" + s : s;
}

export function percent(p) { return `${Math.round(100 * p)}%`; }

// a bound in words, for the player it is about
export const BOUND_WORDS = { exact: "exact", lower: "at least", upper: "at most", estimate: "estimate" };
// a bound seen from the other player turns over
export const BOUND_FLIP = { lower: "upper", upper: "lower", exact: "exact", estimate: "estimate" };

export function message(text, kind) {
  const m = $("message");
  m.textContent = text || "";
  m.className = "message" + (kind ? " " + kind : "");
}

export function setStatus(text) { $("status").textContent = text; }

// the page's state: the game tree and the node shown, what is held, the engine's jobs
export const state = {
  patches: [],
  tree: null,            // a Tree (tree.js)
  current: 0,            // the node shown
  view: null,            // the server's view of the position of the node shown
  selected: null,        // the patch held: {patch, o} or {leather: true}
  hover: null,           // the square under the pointer (or last tapped)
  pointer: "mouse",      // the last pointer's kind: mouse, touch or pen
  preview: null,         // a ranked row's move drawn on the board
  play: null,            // a game against the engine: {engine: side, level}
  live: false,           // analyse every position visited
  results: new Map(),    // node id -> the analysis of that position {result, status, lines, time}
  job: null,             // the engine's one job: {id, purpose, node, cancelled}
  review: null,          // {data, nodes}: the review and the node of each ply it judged
  marks: new Map(),      // node id -> the review of the move that reached it
  quiz: null,            // {exercises, k, found, answered, view, graded}
  setup: null,           // while setting up: {placed, pick, hover}
  said: null,            // what the message says the engine played: {text, node}
};

// functions app.js registers, so the other modules can call them without import cycles
export const app = {};
