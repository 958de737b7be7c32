// ordnance table: the map as a board: zoom, pan, stacks to read, counters and hexes to choose.
// Written for this project; plain JS, no build step. The server draws the map as SVG (counters
// g.counter[data-unit][data-hex][data-side], hexes polygon.hex#hex-LABEL[data-hex]); this
// script only moves the SVG's viewBox (so text stays vector-crisp at every zoom) and turns
// pointer and key input into two events on `document` that the board script acts on:
//   ordnance:unit {unit}  a player chose one of their own counters;
//   ordnance:hex  {hex}   a player activated a hex that carries data-action.
// It listens for ordnance:swapped (table.js replaced <main>) and keeps the view across it.
"use strict";
(function () {
  const READ = 50; // CSS px wide a lone counter is at the default zoom (readable text)
  const STEP = 1.25; // one zoom button press or +/- key
  const PAN = 80; // CSS px an arrow key moves the map (four times that with Shift)

  const stack = window.OrdnanceStack; // static/map_stack.js, loaded first
  let map = null; // the current map's state (see setUp)
  let sizes = null; // the ResizeObserver of the current map's frame
  const views = {}; // game -> {cx, cy, k}: the view kept across swaps of <main>

  function stored(game) {
    if (views[game]) { return views[game]; }
    try {
      const text = sessionStorage.getItem("ordnance-view-" + game);
      return text ? JSON.parse(text) : null;
    } catch (error) { return null; }
  }

  function keep() {
    if (!map || !map.game) { return; }
    const view = { cx: map.cx, cy: map.cy, k: map.k };
    views[map.game] = view;
    try { sessionStorage.setItem("ordnance-view-" + map.game, JSON.stringify(view)); } catch (error) { /* private mode */ }
  }

  function emit(name, detail) {
    document.dispatchEvent(new CustomEvent(name, { detail: detail }));
  }

  // --- geometry ------------------------------------------------------------------------
  function box(el) { return el.getBoundingClientRect(); }

  // The drawing's own box (its first viewBox), the map's area (the hexes, without title and
  // legend), the size of a lone counter in drawing units.
  function world(svg) {
    const vb = svg.viewBox.baseVal;
    const whole = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
    const clip = svg.querySelector("clipPath#map rect");
    const area = clip ? { x: clip.x.baseVal.value, y: clip.y.baseVal.value,
      w: clip.width.baseVal.value, h: clip.height.baseVal.value } : whole;
    let face = 0;
    for (const rect of svg.querySelectorAll("g.counter .counter-face")) {
      face = Math.max(face, rect.width.baseVal.value);
    }
    return { whole: whole, area: area, face: face };
  }

  // Where a counter's face sits in drawing units (its group's and body's translates).
  // Geometry comes from the markup's attributes, never from getBBox or getBoundingClientRect:
  // a read of layout after a write to the map lays its ~1,400 shapes and texts out again
  // (40-60 ms on the village map, on a loaded machine), and these numbers never change.
  function counterCentre(g) {
    const at = /translate\(([-\d.]+)[ ,]+([-\d.]+)\)/;
    const outer = at.exec(g.getAttribute("transform") || "");
    const body = g.querySelector(".counter-body");
    const inner = body ? at.exec(body.getAttribute("transform") || "") : null;
    const x = (outer ? +outer[1] : 0) + (inner ? +inner[1] : 0);
    const y = (outer ? +outer[2] : 0) + (inner ? +inner[2] : 0);
    return { x: x, y: y };
  }

  // A hex's centre in drawing units: the middle of its polygon's corners (`points`).
  const hexCentres = new WeakMap();
  function hexCentre(el) {
    let at = hexCentres.get(el);
    if (at) { return at; }
    const n = (el.getAttribute("points") || "").trim().split(/[\s,]+/).map(Number);
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (let i = 0; i + 1 < n.length; i += 2) {
      x0 = Math.min(x0, n[i]); x1 = Math.max(x1, n[i]);
      y0 = Math.min(y0, n[i + 1]); y1 = Math.max(y1, n[i + 1]);
    }
    at = isFinite(x0) && isFinite(y0) ? { x: (x0 + x1) / 2, y: (y0 + y1) / 2, r: (x1 - x0) / 2 }
      : { x: 0, y: 0, r: 0 };
    hexCentres.set(el, at);
    return at;
  }

  function centreOf(el) {
    return el.matches("g.counter") ? counterCentre(el) : hexCentre(el);
  }

  // Is a drawing point (with a margin) inside the current view?
  function inView(at, margin) {
    const hw = map.w / 2 / map.k + margin, hh = map.h / 2 / map.k + margin;
    return Math.abs(at.x - map.cx) <= hw && Math.abs(at.y - map.cy) <= hh;
  }

  // The frame's size in CSS px. Reading it lays the page out, the fresh map included, and
  // the viewBox written after that lays every text of the map out again at its new scale
  // (two layouts of the whole map, 40-60 ms each on the village map under load). So a new
  // map takes the size the last frame had (the map before a swap, or this tab's last page),
  // writes its view before the first layout, and the ResizeObserver, which reports after
  // layout and before paint, corrects a wrong guess in the same frame. Only a tab's first
  // map reads the size.
  function measure(before) {
    let size = before && before.w > 1 && before.h > 1 ? { w: before.w, h: before.h } : null;
    if (!size) {
      try { size = JSON.parse(sessionStorage.getItem("ordnance-frame") || "null"); } catch (error) { size = null; }
    }
    if (size && size.w > 1 && size.h > 1) {
      map.w = size.w; map.h = size.h;
      return;
    }
    readSize();
  }

  function readSize() {
    const r = box(map.frame);
    map.w = r.width || 1;
    map.h = r.height || 1;
  }

  function sized(w, h) {
    const first = !map.observed;
    map.observed = true;
    const same = w === map.w && h === map.h;
    if (same && !first) { return; }
    try { sessionStorage.setItem("ordnance-frame", JSON.stringify({ w: w, h: h })); } catch (error) { /* private mode */ }
    if (same) { return; }
    map.w = w; map.h = h;
    if (!first) { draw(); return; }
    // The guess was wrong: the right view now, laid out again before this frame is painted.
    if (map.homed) { home(); } else { drawNow(); }
  }

  function fitScale() {
    const w = map.w, h = map.h;
    return Math.min(w / map.world.whole.w, h / map.world.whole.h);
  }

  function readScale() {
    return map.world.face > 0 ? READ / map.world.face : fitScale();
  }

  function bounds() {
    const fit = fitScale();
    const read = readScale();
    return { low: Math.min(fit, read) * 0.85, high: Math.max(read * 4, fit * 2) };
  }

  function clampView() {
    const b = bounds();
    map.k = Math.min(b.high, Math.max(b.low, map.k));
    const w = map.world.whole;
    map.cx = Math.min(w.x + w.w, Math.max(w.x, map.cx));
    map.cy = Math.min(w.y + w.h, Math.max(w.y, map.cy));
  }

  // The view as the SVG's viewBox, shaped like the frame (so nothing is letterboxed).
  function paint() {
    const w = map.w, h = map.h;
    const vw = w / map.k, vh = h / map.k;
    const viewBox = [map.cx - vw / 2, map.cy - vh / 2, vw, vh].map((n) => n.toFixed(2)).join(" ");
    // The same view again (the ResizeObserver's first call, a clamped pan) writes nothing: a
    // new viewBox lays every text of the map out again at its new scale.
    if (map.svg.getAttribute("viewBox") !== viewBox) { map.svg.setAttribute("viewBox", viewBox); }
    map.frame.dataset.zoom = map.k.toFixed(3);
    keep();
    stack.place();
  }

  // At the next animation frame: a burst of wheel or pointer events paints once.
  let frame = 0;
  function draw() {
    if (!map) { return; }
    clampView();
    map.frame.dataset.zoom = map.k.toFixed(3); // the state now, the picture at the frame
    if (!frame) {
      frame = requestAnimationFrame(() => { frame = 0; if (map) { paint(); } });
    }
  }

  // Now, not at the next frame (a new map, a fit, a focused counter brought into view).
  function drawNow() {
    if (frame) { cancelAnimationFrame(frame); frame = 0; }
    clampView();
    paint();
  }

  // A point of the page (client px) in drawing units, at the current view.
  function toWorld(clientX, clientY) {
    const r = box(map.frame);
    return { x: map.cx + (clientX - r.left - r.width / 2) / map.k,
      y: map.cy + (clientY - r.top - r.height / 2) / map.k };
  }

  // Zoom by `factor`, keeping the drawing point under (clientX, clientY) where it is.
  function zoomAbout(factor, clientX, clientY) {
    const r = box(map.frame);
    const px = clientX === undefined ? r.left + r.width / 2 : clientX;
    const py = clientY === undefined ? r.top + r.height / 2 : clientY;
    const before = toWorld(px, py);
    const b = bounds();
    map.k = Math.min(b.high, Math.max(b.low, map.k * factor));
    map.cx = before.x - (px - r.left - r.width / 2) / map.k;
    map.cy = before.y - (py - r.top - r.height / 2) / map.k;
    draw();
  }

  function panBy(dx, dy) { // CSS px
    map.cx -= dx / map.k;
    map.cy -= dy / map.k;
    draw();
  }

  function fit() {
    const w = map.world.whole;
    map.k = fitScale();
    map.cx = w.x + w.w / 2;
    map.cy = w.y + w.h / 2;
    drawNow();
  }

  // The default view: readable counters, centred on the side's own units (the map's middle
  // for a spectator or a side with no unit on the map); a small map that fits readably fits.
  function home() {
    const fitK = fitScale(), readK = readScale();
    if (fitK >= readK) { fit(); return; }
    const side = map.side;
    const own = side ? Array.from(map.svg.querySelectorAll("g.counter"))
      .filter((g) => g.getAttribute("data-side") === side) : [];
    const area = map.world.area;
    let cx = area.x + area.w / 2, cy = area.y + area.h / 2;
    if (own.length) {
      const xs = own.map((g) => counterCentre(g).x), ys = own.map((g) => counterCentre(g).y);
      cx = (Math.min(...xs) + Math.max(...xs)) / 2;
      cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    }
    map.k = readK;
    // Within the map's hexes where the view is smaller than they are: no empty band at first.
    const vw = map.w / readK, vh = map.h / readK;
    map.cx = vw < area.w ? Math.min(area.x + area.w - vw / 2, Math.max(area.x + vw / 2, cx)) : area.x + area.w / 2;
    map.cy = vh < area.h ? Math.min(area.y + area.h - vh / 2, Math.max(area.y + vh / 2, cy)) : area.y + area.h / 2;
    drawNow();
  }

  // Bring a drawing element into view (a counter or hex reached by Tab), when it is outside.
  function reveal(el) {
    const at = centreOf(el);
    if (inView(at, -map.world.face / 2)) { return; }
    map.cx = at.x;
    map.cy = at.y;
    drawNow();
  }

  // --- what a click means -----------------------------------------------------------------
  function hexOf(label) { return label ? document.getElementById("hex-" + label) : null; }

  function mine(g) { return !!map.side && g.getAttribute("data-side") === map.side; }

  // A counter or hex was clicked, tapped or pressed Enter on. A marked hex (data-action)
  // acts, and so does someone else's counter on it (a target is picked under enemy counters).
  // One's own counter on a marked hex is ambiguous (move into that stack, or choose that
  // unit?): its stack's card opens and asks, with "Act on HEX" and a "Choose" button per own
  // counter; nothing is chosen or acted on by that click. Else one's own counter is chosen,
  // and a stack (or someone else's counter) opens to be read.
  function activate(target) {
    const counter = target.closest("g.counter");
    const label = counter ? counter.getAttribute("data-hex") : target.getAttribute("data-hex");
    const hexEl = hexOf(label);
    const marked = !!hexEl && hexEl.hasAttribute("data-action");
    if (marked && !(counter && mine(counter))) {
      stack.close();
      emit("ordnance:hex", { hex: label });
      return;
    }
    if (!counter) { stack.close(); return; }
    const unit = counter.getAttribute("data-unit");
    if (mine(counter) && !marked) {
      choose(unit);
      if (stackOf(label).length === 1) { stack.close(); return; }
    }
    openStack(label, unit);
  }

  function choose(unit) {
    map.chosen = unit;
    emit("ordnance:unit", { unit: unit });
  }

  function stackOf(label) {
    return Array.from(map.svg.querySelectorAll("g.counter"))
      .filter((g) => g.getAttribute("data-hex") === label);
  }

  // The stack's card (static/map_stack.js): each counter on the hex, read and chosen there.
  function openStack(label, first) {
    stack.show({ label: label, first: first, counters: stackOf(label), hexEl: hexOf(label),
      wrap: map.wrap, who: document.documentElement.dataset.boardUnit || map.chosen, mine: mine,
      choose: choose, act: (hex) => emit("ordnance:hex", { hex: hex }),
      back: () => map.frame.focus() });
  }

  // --- keyboard: counters and acting hexes are buttons in the tab order --------------------
  function focusable(el, name) {
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", name);
  }

  function markCounters() {
    for (const g of map.svg.querySelectorAll("g.counter")) {
      const d = stack.describe(g);
      focusable(g, d.unit + ", " + d.name + ", " + d.side + ", in " + d.hex
        + (d.notation ? ": " + d.notation : "") + "; " + d.state
        + (mine(g) ? "" : " (read only)"));
    }
    markActions();
  }

  // Hexes the board marked with data-action: reachable by Tab, Enter acts; others' counters
  // on them let the click through to the hex (a target is picked even under enemy counters);
  // one's own stay clickable (see activate).
  function markActions() {
    for (const hexEl of map.svg.querySelectorAll(".hex[data-hex]")) {
      const label = hexEl.getAttribute("data-hex");
      const acts = hexEl.getAttribute("data-action");
      if (acts) {
        // board.js's own name of the hex (its notes: MP, range, aims) is kept.
        const named = hexEl.getAttribute("aria-label") || "";
        focusable(hexEl, named.startsWith("Hex " + label + ": ") ? named
          : "Hex " + label + ": " + acts.split(/\s+/).join(", "));
        hexEl.classList.add("acting");
      } else if (hexEl.classList.contains("acting")) {
        hexEl.removeAttribute("tabindex");
        hexEl.removeAttribute("role");
        hexEl.removeAttribute("aria-label");
        hexEl.classList.remove("acting");
      }
    }
    for (const g of map.svg.querySelectorAll("g.counter")) {
      const hexEl = hexOf(g.getAttribute("data-hex"));
      g.classList.toggle("on-action", !!(hexEl && hexEl.hasAttribute("data-action")) && !mine(g));
    }
    showMarks();
  }

  // Newly marked hexes all outside the view: the view moves to their middle (same zoom);
  // when some are in view the map stays where the player put it.
  let marked = 0;
  function showMarks() {
    const marks = Array.from(map.svg.querySelectorAll(".hex[data-action]"));
    const fresh = marks.length > 0 && marked === 0;
    marked = marks.length;
    if (!fresh) { return; }
    const at = marks.map(hexCentre);
    if (at.some((c) => inView(c, c.r))) { return; }
    const xs = at.map((c) => c.x), ys = at.map((c) => c.y);
    map.cx = (Math.min(...xs) + Math.max(...xs)) / 2;
    map.cy = (Math.min(...ys) + Math.max(...ys)) / 2;
    drawNow();
  }

  // --- set up a map (at load and after every swap of <main>) -----------------------------
  function setUp() {
    const figure = document.querySelector("figure.map");
    const svg = figure ? figure.querySelector("svg.ordnance-map") : null;
    if (!svg) { map = null; return; }
    if (map && map.svg === svg) { return; }
    const here = document.getElementById("main");
    const before = map;
    const game = here ? here.dataset.game || "" : "";
    const chosen = map && map.game === game ? map.chosen : null;
    map = { svg: svg, frame: figure, wrap: figure.closest(".map-frame") || figure,
      game: game, side: here ? here.dataset.side || "" : "",
      world: world(svg), cx: 0, cy: 0, k: 1, w: 1, h: 1, chosen: chosen,
      observed: !window.ResizeObserver, homed: false };
    measure(before); // before this function writes anything
    marked = 0;
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    figure.classList.add("live-map");
    markCounters();
    if (window.ResizeObserver) {
      if (sizes) { sizes.disconnect(); }
      sizes = new ResizeObserver((entries) => {
        for (const entry of entries) {
          if (map && entry.target === map.frame) {
            sized(entry.contentRect.width || 1, entry.contentRect.height || 1);
          }
        }
      });
      sizes.observe(figure);
    }
    new MutationObserver(markActions).observe(svg, { attributes: true, subtree: true,
      attributeFilter: ["data-action"] });
    const view = stored(game);
    if (view && isFinite(view.k) && isFinite(view.cx) && isFinite(view.cy)) {
      map.k = view.k; map.cx = view.cx; map.cy = view.cy;
      drawNow();
    } else {
      map.homed = true;
      home();
    }
  }

  document.addEventListener("ordnance:swapped", setUp);
  document.addEventListener("DOMContentLoaded", setUp);
  if (document.readyState !== "loading") { setUp(); }
  window.addEventListener("resize", () => { if (map) { if (!window.ResizeObserver) { readSize(); } draw(); } });
  // Whoever chose the unit (a counter here, a list button of the board), the map knows it.
  document.addEventListener("ordnance:unit", (event) => {
    if (map && event.detail) { map.chosen = event.detail.unit; }
  });

  // --- buttons ------------------------------------------------------------------------
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-zoom]") : null;
    if (!button || !map) { return; }
    const how = button.getAttribute("data-zoom");
    if (how === "in") { zoomAbout(STEP); } else if (how === "out") { zoomAbout(1 / STEP); } else { fit(); }
  });

  function inMap(event) {
    return map && event.target instanceof Element && map.frame.contains(event.target);
  }

  // Pointers and the wheel (static/map_pointer.js): they pan, zoom and click the board.
  window.OrdnancePointer.attach({
    inMap: inMap,
    frame: () => (map ? map.frame : null),
    zoom: () => map.k,
    panBy: panBy,
    zoomAbout: zoomAbout,
    activate: activate,
    closeStack: () => stack.close(),
  });

  // --- keys: arrows pan, +/- zoom, 0 fits, Enter acts, Escape closes the stack ---------------
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && document.getElementById("map-stack")) {
      // Only the card: the choice stays (a second Escape clears it, static/board.js).
      event.stopImmediatePropagation();
      stack.close();
      if (map) { map.frame.focus(); }
      return;
    }
    if (!inMap(event) || event.altKey || event.ctrlKey || event.metaKey) { return; }
    if (event.target.closest(".map-stack")) { return; }
    const step = event.shiftKey ? PAN * 4 : PAN;
    const moves = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[event.key]) {
      event.preventDefault();
      panBy(moves[event.key][0], moves[event.key][1]);
    } else if (event.key === "+" || event.key === "=") {
      event.preventDefault();
      zoomAbout(STEP);
    } else if (event.key === "-" || event.key === "_") {
      event.preventDefault();
      zoomAbout(1 / STEP);
    } else if (event.key === "0") {
      event.preventDefault();
      fit();
    } else if ((event.key === "Enter" || event.key === " ") && event.target.matches("g.counter, .hex[data-action]")) {
      event.preventDefault();
      activate(event.target);
    }
  });

  // Tab brought a counter or a marked hex into focus: into view. Only the keyboard's focus
  // (:focus-visible): the focus a click gives comes between its press and its release, and a
  // view moved then slides another shape under the pointer, so the click lands on the map's
  // background and chooses nothing (a counter near the view's edge, clicked or tapped).
  document.addEventListener("focusin", (event) => {
    if (map && event.target instanceof Element && event.target.matches("g.counter, .hex[data-action]")
      && map.svg.contains(event.target) && event.target.matches(":focus-visible")) {
      reveal(event.target);
    }
  });

  // The page's own click elsewhere closes an open stack.
  document.addEventListener("pointerdown", (event) => {
    if (event.target instanceof Element && !event.target.closest(".map-stack, figure.map")) { stack.close(); }
  });
})();
