// The kiosk page: draws the referee's snapshot (docs/kiosk.md) and follows it live.
// Plain JavaScript, no framework, nothing loaded from elsewhere.  Every string
// from the server goes in as text, never as markup.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const W = 1100, H = 760;
const FIELD = { left: 90, right: 1010, top: 20, bottom: 740 };
const BAR = { left: 525, right: 575 };
const PW = (BAR.left - FIELD.left) / 6;   // width of one point
const R = 33;                              // checker radius
const STACK = 5;                           // checkers drawn per point before a count
const STALE_MS = 45000;                    // no word from the server this long: reconnect

let source = null;
let lastHeard = 0;
let lastAlert = null;
let lastSeq = -1;      // the newest snapshot drawn on this connection
let generation = 0;    // bumped at each (re)connect: an answer begun before it is stale

function el(tag, attrs, parent) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function text(parent, x, y, cls, content) {
  const node = el("text", { x, y, class: cls }, parent);
  node.textContent = String(content);
  return node;
}

function cap(word) {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : "";
}

function other(colour) {
  return colour === "light" ? "dark" : "light";
}

// Physical point i (0 = bottom right, 0-11 right to left along the bottom,
// 12-23 left to right along the top) to its column from the left and its row.
function pointPlace(i) {
  const bottom = i < 12;
  const col = bottom ? 11 - i : i - 12;
  const x = col < 6 ? FIELD.left + PW * (col + 0.5) : BAR.right + PW * (col - 6 + 0.5);
  return { x, bottom };
}

function drawFrame(svg) {
  el("rect", { x: 0, y: 0, width: W, height: H, rx: 18, class: "frame" }, svg);
  el("rect", { x: 10, y: FIELD.top, width: 70, height: FIELD.bottom - FIELD.top, class: "tray" }, svg);
  el("rect", { x: W - 80, y: FIELD.top, width: 70, height: FIELD.bottom - FIELD.top, class: "tray" }, svg);
  el("rect", { x: FIELD.left, y: FIELD.top, width: FIELD.right - FIELD.left,
               height: FIELD.bottom - FIELD.top, class: "field" }, svg);
  el("rect", { x: BAR.left, y: FIELD.top, width: BAR.right - BAR.left,
               height: FIELD.bottom - FIELD.top, class: "barstrip" }, svg);
  for (let i = 0; i < 24; i++) {
    const { x, bottom } = pointPlace(i);
    const base = bottom ? FIELD.bottom : FIELD.top;
    const tip = bottom ? FIELD.bottom - 300 : FIELD.top + 300;
    el("polygon", { points: `${x - PW / 2},${base} ${x + PW / 2},${base} ${x},${tip}`,
                    class: i % 2 === 0 ? "tri-a" : "tri-b" }, svg);
  }
}

function stack(group, colour, count, x, firstY, step, most, r) {
  const shown = Math.min(count, most);
  for (let k = 0; k < shown; k++) {
    el("circle", { cx: x, cy: firstY + k * step, r, class: `checker ${colour}` }, group);
  }
  if (count > most) text(group, x, firstY + (shown - 1) * step, `count ${colour}`, count);
}

function drawCheckers(svg, board, seating) {
  board.points.forEach((counts, i) => {
    const { x, bottom } = pointPlace(i);
    const group = el("g", { class: "point", "data-point": i, "data-light": counts.light,
                            "data-dark": counts.dark }, svg);
    const firstY = bottom ? FIELD.bottom - R - 2 : FIELD.top + R + 2;
    const step = bottom ? -2 * R : 2 * R;
    for (const colour of ["light", "dark"]) {
      if (counts[colour] > 0) stack(group, colour, counts[colour], x, firstY, step, STACK, R);
    }
  });
  const mid = (FIELD.top + FIELD.bottom) / 2;
  const bar = el("g", { class: "bar", "data-light": board.bar.light, "data-dark": board.bar.dark }, svg);
  for (const colour of ["light", "dark"]) {
    const atBottom = seating.bottom === colour;
    const firstY = atBottom ? mid + 95 : mid - 95;
    stack(bar, colour, board.bar[colour], (BAR.left + BAR.right) / 2, firstY,
          atBottom ? 62 : -62, 3, 30);
  }
  const trayX = seating.home === "right" ? W - 45 : 45;
  const off = el("g", { class: "off", "data-light": board.off.light, "data-dark": board.off.dark }, svg);
  for (const colour of ["light", "dark"]) {
    const atBottom = seating.bottom === colour;
    for (let k = 0; k < board.off[colour]; k++) {
      const y = atBottom ? FIELD.bottom - 22 - k * 21 : FIELD.top + 4 + k * 21;
      el("rect", { x: trayX - 28, y, width: 56, height: 18, rx: 4, class: `offbar ${colour}` }, off);
    }
  }
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function drawDie(svg, value, cx, cy, isVoid) {
  const group = el("g", { class: isVoid ? "die void" : "die", "data-value": value === null ? "" : value }, svg);
  el("rect", { x: cx - 30, y: cy - 30, width: 60, height: 60, rx: 9 }, group);
  for (const [dx, dy] of PIPS[value] || []) el("circle", { cx: cx + dx * 16, cy: cy + dy * 16, r: 6 }, group);
  if (value === null || !PIPS[value]) text(group, cx, cy, "count light", "?");
  if (isVoid) {
    el("line", { x1: cx - 38, y1: cy - 38, x2: cx + 38, y2: cy + 38, class: "cross" }, group);
    el("line", { x1: cx + 38, y1: cy - 38, x2: cx - 38, y2: cy + 38, class: "cross" }, group);
  }
}

function halfCentre(side) {
  if (side === "left") return (FIELD.left + BAR.left) / 2;
  if (side === "right") return (BAR.right + FIELD.right) / 2;
  return null;
}

function drawDice(svg, dice, seating) {
  const mid = (FIELD.top + FIELD.bottom) / 2;
  const placed = { left: 0, right: 0, none: 0 };
  function spot(side) {
    const key = side === "left" || side === "right" ? side : "none";
    const n = placed[key]++;
    const centre = halfCentre(side);
    if (centre === null) return { x: seating && seating.home === "left" ? W - 45 : 45, y: mid + 80 * n };
    return { x: centre - 45 + 90 * (n % 2), y: mid + 80 * Math.floor(n / 2) };
  }
  if (dice.lying.length > 0) {
    for (const die of dice.lying) { const p = spot(die.side); drawDie(svg, die.value, p.x, p.y, false); }
  } else if (dice.values) {
    const side = seating && seating.bottom === dice.player ? "right" : "left";
    for (const value of dice.values) { const p = spot(side); drawDie(svg, value, p.x, p.y, false); }
  }
  for (const die of dice.void) { const p = spot(die.side); drawDie(svg, die.value, p.x, p.y, true); }
}

function drawCube(svg, cube) {
  if (!cube.in_play) return;
  const x = (BAR.left + BAR.right) / 2;
  const y = cube.place === "top" ? FIELD.top + 50 : cube.place === "bottom" ? FIELD.bottom - 50
    : (FIELD.top + FIELD.bottom) / 2;
  const group = el("g", { class: "cube", "data-value": cube.value, "data-owner": cube.owner || "",
                          "data-place": cube.place }, svg);
  el("rect", { x: x - 34, y: y - 34, width: 68, height: 68, rx: 8 }, group);
  text(group, x, y, "", cube.value === 1 ? 64 : cube.value);
}

function drawBoard(state) {
  const svg = document.getElementById("board");
  svg.replaceChildren();
  drawFrame(svg);
  if (state.board && state.seating) {
    drawCheckers(svg, state.board, state.seating);
    drawDice(svg, state.dice, state.seating);
  } else {
    text(svg, (FIELD.left + FIELD.right) / 2, (FIELD.top + FIELD.bottom) / 2 - 30, "notice",
         "Set up the board");
  }
  if (state.cube) drawCube(svg, state.cube);
}

function setText(id, content) {
  document.getElementById(id).textContent = content;
}

function render(state) {
  document.body.dataset.seq = state.seq;
  document.body.dataset.stage = state.stage || "";
  const match = state.match || { length: 0, score: { light: 0, dark: 0 }, crawford: false, game: 0 };
  setText("points-light", match.score.light);
  setText("points-dark", match.score.dark);
  for (const colour of ["light", "dark"]) {
    document.getElementById(`score-${colour}`).classList.toggle("turn", state.turn === colour);
  }
  const length = match.length > 0 ? `match to ${match.length}` : "money game";
  setText("match-length", match.game > 0 ? `${length} · game ${match.game}` : length);
  document.getElementById("crawford").hidden = !match.crawford;
  setText("turn", state.turn ? `${cap(state.turn)}'s turn` : "");
  setText("expecting", cap(state.expecting || ""));

  const alert = document.getElementById("alert");
  if (state.alert) {
    alert.textContent = state.alert.text;
    alert.classList.toggle("look", state.alert.event === "warning");
    if (lastAlert !== state.alert.seq) {
      alert.classList.remove("fresh");
      void alert.offsetWidth;  // restart the flash for a new call
      alert.classList.add("fresh");
    }
    lastAlert = state.alert.seq;
    alert.hidden = false;
  } else {
    alert.hidden = true;
    lastAlert = null;
  }

  const calls = state.calls || { window: null };
  const windowBox = document.getElementById("callwindow");
  if (calls.window) {
    const w = calls.window;
    windowBox.textContent = `${cap(w.caller)} may call ${w.mover}'s play ${w.move}` +
      (w.reasons.length ? `: ${w.reasons.join("; ")}` : "");
    windowBox.hidden = false;
  } else {
    windowBox.hidden = true;
  }

  const problems = [];
  if (state.camera_ok === false) problems.push("NO CAMERA");
  if (state.condition === "occluded") problems.push("hand over the board");
  for (const [name, status] of Object.entries(state.outputs || {})) {
    if (status !== "up" && status !== "ok") problems.push(`${name}: ${status}`);
  }
  const problemBox = document.getElementById("problems");
  problemBox.textContent = problems.join(" · ");
  problemBox.hidden = problems.length === 0;

  const log = document.getElementById("log");
  log.replaceChildren();
  for (const entry of (state.log || []).slice(-12).reverse()) {
    const item = document.createElement("li");
    item.textContent = entry.text;
    if (entry.event === "warning") item.className = "look";
    else if (["reroll", "illegal_play", "call_upheld", "cube_refused"].includes(entry.event)) item.className = "call";
    log.appendChild(item);
  }
  drawBoard(state);
}

function heard() {
  lastHeard = Date.now();
  document.getElementById("connection").hidden = true;
}

// Snapshots come two ways (the event stream and /api/state) and a slow answer can
// arrive after a newer event: drawing it would take back what the newer one showed
// (a call's alert hidden again).  Only a snapshot at least as new as the last one
// drawn, on the current connection, is drawn; a new connection (perhaps to a
// restarted referee, whose numbers start again) starts afresh.
function fresh(state, gen) {
  if (gen !== generation) return false;
  if (typeof state.seq === "number") {
    if (state.seq < lastSeq) return false;
    lastSeq = state.seq;
  }
  return true;
}

async function fetchState() {
  const gen = generation;
  try {
    const response = await fetch("/api/state", { cache: "no-store" });
    if (response.ok) {
      const state = await response.json();
      heard();
      if (fresh(state, gen)) render(state);
    }
  } catch (error) {
    document.getElementById("connection").hidden = false;
  }
}

function connect() {
  if (source) source.close();
  generation += 1;
  lastSeq = -1;
  const gen = generation;
  source = new EventSource("/events");
  // (Re)connected, perhaps to a restarted referee: take its whole state again.
  source.addEventListener("open", () => { heard(); fetchState(); });
  source.addEventListener("state", (event) => {
    heard();
    const state = JSON.parse(event.data);
    if (fresh(state, gen)) render(state);
  });
  source.addEventListener("ping", heard);
  source.addEventListener("error", () => {
    document.getElementById("connection").hidden = false;
    // EventSource retries by itself unless the server answered with an error;
    // then it gives up, and we start again.
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
  });
}

setInterval(() => { if (Date.now() - lastHeard > STALE_MS) { lastHeard = Date.now(); connect(); } }, 5000);
drawBoard({});
lastHeard = Date.now();
connect();
fetchState();
