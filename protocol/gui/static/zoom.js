// Zoom and pan over the board, for boards whose points are too small to tap
// (the largest boards on a phone): the +, - and whole-board buttons, a pinch
// with two fingers (or Ctrl + wheel, a trackpad's pinch), and a drag with one
// finger or the mouse once zoomed in. It changes only the picture's viewBox,
// so the server's picture, the overlays over it and the clicks on its points
// (data-point) work as before; a drag never counts as a click. A new picture
// keeps the zoom, a picture of another board (new game or size) starts whole.

import { $ } from "./state.js";

const MAX_ZOOM = 6;
const STEP = 1.5;
const DRAG_PIXELS = 6; // a press that moves less than this is a click

let zoom = 1;
let centre = null; // {x, y} in the picture's coordinates; null: the middle
let baseShown = ""; // the last picture's own viewBox
const pointers = new Map(); // pointerId -> {x, y}
let pinch = null; // {distance} while two pointers are down
let drag = null; // {x, y, moved} while one pointer is down
let swallowClick = false;

const board = () => $("board");
const picture = () => board().querySelector("svg.picture");

function baseBox(svg) {
  if (!svg.dataset.baseViewBox) svg.dataset.baseViewBox = svg.getAttribute("viewBox") || "";
  return svg.dataset.baseViewBox.split(/[\s,]+/).map(Number);
}

function clamp(value, low, high) {
  return Math.min(Math.max(value, low), Math.max(low, high));
}

/** Set the picture's viewBox from the zoom and the centre. */
function apply() {
  const svg = picture();
  const root = board();
  if (!svg) return;
  const [x, y, w, h] = baseBox(svg);
  if (![x, y, w, h].every(Number.isFinite) || w <= 0 || h <= 0) return;
  if (zoom <= 1) {
    zoom = 1;
    centre = null;
    svg.setAttribute("viewBox", svg.dataset.baseViewBox);
  } else {
    const vw = w / zoom;
    const vh = h / zoom;
    const c = centre || { x: x + w / 2, y: y + h / 2 };
    centre = { x: clamp(c.x, x + vw / 2, x + w - vw / 2), y: clamp(c.y, y + vh / 2, y + h - vh / 2) };
    svg.setAttribute("viewBox", [centre.x - vw / 2, centre.y - vh / 2, vw, vh].map((v) => v.toFixed(2)).join(" "));
  }
  root.dataset.zoom = zoom.toFixed(2);
  root.classList.toggle("zoomed", zoom > 1);
  $("zoom-out").disabled = zoom <= 1;
  $("zoom-reset").disabled = zoom <= 1;
  $("zoom-in").disabled = zoom >= MAX_ZOOM;
}

/** The picture's point under a place of the screen. */
function toPicture(clientX, clientY) {
  const svg = picture();
  const matrix = svg && svg.getScreenCTM();
  if (!matrix) return null;
  const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  return { x: point.x, y: point.y };
}

/** Zoom by `factor`, keeping the picture's point under (clientX, clientY) where it is. */
export function zoomBy(factor, clientX = null, clientY = null) {
  const svg = picture();
  if (!svg) return;
  const [x, y, w, h] = baseBox(svg);
  const next = clamp(zoom * factor, 1, MAX_ZOOM);
  if (next === zoom) return;
  const c = centre || { x: x + w / 2, y: y + h / 2 };
  const at = clientX === null ? null : toPicture(clientX, clientY);
  const f = next / zoom;
  centre = at ? { x: at.x - (at.x - c.x) / f, y: at.y - (at.y - c.y) / f } : c;
  zoom = next;
  apply();
}

function panBy(dx, dy) {
  const svg = picture();
  const matrix = svg && svg.getScreenCTM();
  if (!matrix || zoom <= 1 || !centre) return;
  centre = { x: centre.x - dx / matrix.a, y: centre.y - dy / matrix.d };
  apply();
}

function reset() {
  zoom = 1;
  apply();
}

function distance() {
  const [a, b] = [...pointers.values()];
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function middle() {
  const [a, b] = [...pointers.values()];
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

function onDown(event) {
  if (event.button !== undefined && event.button > 0) return;
  pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  if (pointers.size === 2) {
    pinch = { distance: distance() };
    drag = null;
    swallowClick = true; // a pinch is not a click
  } else if (pointers.size === 1) {
    drag = { x: event.clientX, y: event.clientY, moved: false };
    swallowClick = false;
  }
}

function onMove(event) {
  if (!pointers.has(event.pointerId)) return;
  pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  if (pinch && pointers.size === 2) {
    const now = distance();
    if (pinch.distance > 0 && now > 0) {
      const m = middle();
      zoomBy(now / pinch.distance, m.x, m.y);
    }
    pinch.distance = now;
    event.preventDefault();
  } else if (drag && zoom > 1) {
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < DRAG_PIXELS) return;
    drag.moved = true;
    swallowClick = true;
    drag.x = event.clientX;
    drag.y = event.clientY;
    panBy(dx, dy);
    event.preventDefault();
  }
}

function onUp(event) {
  pointers.delete(event.pointerId);
  if (pointers.size < 2) pinch = null;
  if (pointers.size === 0) drag = null;
}

export function listen() {
  const root = board();
  new MutationObserver(() => {
    const svg = picture();
    if (!svg || svg.dataset.baseViewBox) return;
    const own = svg.getAttribute("viewBox") || "";
    if (own !== baseShown) { // another board: start whole
      baseShown = own;
      zoom = 1;
      centre = null;
    }
    apply();
  }).observe(root, { childList: true });
  root.addEventListener("pointerdown", onDown);
  root.addEventListener("pointermove", onMove);
  root.addEventListener("pointerup", onUp);
  root.addEventListener("pointercancel", onUp);
  root.addEventListener("pointerleave", onUp);
  // A drag or a pinch ends with a click the board must not take as a move.
  root.addEventListener("click", (event) => {
    if (swallowClick) {
      event.stopPropagation();
      event.preventDefault();
    }
    swallowClick = false;
  }, true);
  root.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return; // a trackpad's pinch; a plain wheel scrolls the page
    event.preventDefault();
    zoomBy(Math.exp(-event.deltaY / 200), event.clientX, event.clientY);
  }, { passive: false });
  $("zoom-in").addEventListener("click", () => zoomBy(STEP));
  $("zoom-out").addEventListener("click", () => zoomBy(1 / STEP));
  $("zoom-reset").addEventListener("click", reset);
  apply();
}

export function state() {
  return { zoom, centre, viewBox: picture() ? picture().getAttribute("viewBox") : null };
}
