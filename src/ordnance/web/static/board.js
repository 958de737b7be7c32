// ordnance board: choose a counter, see where it may act, point at a hex, read the preview.
// Written for this project. On `ordnance:unit` it asks the server for the unit's offers and
// marks each offered hex (`data-action="verb verb"`, a highlight, the note); on `ordnance:hex`
// it asks for the preview of that hex and shows it in #preview-box, with the line of sight
// drawn on the map. The page works without this script (links with ?unit=&hex=).
// map.js (zoom, pan, stacks) turns clicks, taps and Enter on the map into the two events.
"use strict";
(function () {
  const SVG = "http://www.w3.org/2000/svg";
  let chosen = null; // the unit whose hexes are marked
  let asked = 0; // the latest request: older answers are dropped
  let refreshing = null;

  function main() { return document.getElementById("main"); }
  function base() {
    const here = main();
    return here && here.dataset.side ? "/games/" + here.dataset.game + "/" + here.dataset.side : null;
  }
  function cssEscape(text) { return window.CSS && CSS.escape ? CSS.escape(text) : text.replace(/"/g, '\\"'); }
  function hexElement(label) { return document.getElementById("hex-" + label); }
  function info(text) {
    const box = document.getElementById("hex-info");
    if (box) { box.textContent = text; }
  }

  // Every mark of a choice gone: data-action, highlights, notes, the line of sight.
  function clear() {
    chosen = null;
    delete document.documentElement.dataset.boardUnit;
    asked += 1;
    for (const el of document.querySelectorAll("svg [data-action]")) {
      el.removeAttribute("data-action");
      el.classList.remove("offered");
      if (el.dataset.boardTab) { el.removeAttribute("tabindex"); el.removeAttribute("role"); delete el.dataset.boardTab; }
      if (el.dataset.boardLabel !== undefined) {
        if (el.dataset.boardLabel) { el.setAttribute("aria-label", el.dataset.boardLabel); } else { el.removeAttribute("aria-label"); }
        delete el.dataset.boardLabel;
      }
    }
    for (const el of document.querySelectorAll(".board-mark, .board-note, .board-los")) { el.remove(); }
    for (const el of document.querySelectorAll("svg g.counter.chosen")) { el.classList.remove("chosen"); }
    for (const el of document.querySelectorAll("[data-choose-unit][aria-current]")) { el.removeAttribute("aria-current"); el.classList.remove("chosen"); }
    const places = document.getElementById("places");
    if (places) { places.innerHTML = ""; }
  }

  function clearPreview() {
    const box = document.getElementById("preview-box");
    if (box) { box.innerHTML = ""; }
    for (const el of document.querySelectorAll(".board-los")) { el.remove(); }
  }

  // A hex's centre and height in drawing units, from its polygon's `points` (the six corners
  // the server wrote), never getBBox: that lays the whole map out again when it follows a
  // write (a mark, a note), 40-60 ms each on the village map. Kept per element: a hex's
  // corners never change; a swap brings new elements.
  const centres = new WeakMap();
  function centre(el) {
    let at = centres.get(el);
    if (at) { return at; }
    const numbers = (el.getAttribute("points") || "").trim().split(/[\s,]+/).map(Number);
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (let i = 0; i + 1 < numbers.length; i += 2) {
      x0 = Math.min(x0, numbers[i]); x1 = Math.max(x1, numbers[i]);
      y0 = Math.min(y0, numbers[i + 1]); y1 = Math.max(y1, numbers[i + 1]);
    }
    at = isFinite(x0) && isFinite(y0) ? { x: (x0 + x1) / 2, y: (y0 + y1) / 2, h: y1 - y0, w: x1 - x0 } : { x: 0, y: 0, h: 0, w: 0 };
    centres.set(el, at);
    return at;
  }

  // The note drawn in a marked hex: one short line (the MP of a move, the range of a shot,
  // else the first verb's first word) and "+N" for the hex's other verbs. The full words are
  // the hex's aria-label and title, and the places list's.
  function shortNote(h) {
    const first = h.notes.length ? h.notes[0] : "";
    const mp = /(\d+(?:\.\d+)?)\s*MP\b/.exec(first);
    const range = /\brange (\d+)/.exec(first);
    const head = first.split(/[:,;(]/)[0].trim();
    const text = mp ? mp[1] + " MP" : range ? "range " + range[1]
      : head && head.length <= 8 ? head : h.actions[0].split("-")[0];
    return h.actions.length > 1 ? text + " +" + (h.actions.length - 1) : text;
  }

  function mark(h) {
    const el = hexElement(h.hex);
    if (!el) { return; }
    el.setAttribute("data-action", h.actions.join(" "));
    el.classList.add("offered");
    if (!el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "0"); el.setAttribute("role", "button"); el.dataset.boardTab = "1"; }
    el.dataset.boardLabel = el.getAttribute("aria-label") || "";
    const words = h.actions.join(", ") + (h.notes.length ? " (" + h.notes.join("; ") + ")" : "");
    el.setAttribute("aria-label", "Hex " + h.hex + ": " + words);
    const text = shortNote(h);
    const at = centre(el);
    const note = document.createElementNS(SVG, "text");
    note.setAttribute("class", "board-note");
    note.setAttribute("x", at.x.toFixed(1));
    note.setAttribute("y", (at.y + at.h * 0.36).toFixed(1));
    note.setAttribute("text-anchor", "middle");
    note.setAttribute("pointer-events", "none");
    // As large as the hex allows, never wider than it (~0.66 em a bold character): a note
    // stays inside its hex, so notes of neighbouring hexes never run into each other.
    const size = Math.min(at.h * 0.17, (at.w * 0.9) / (0.66 * Math.max(1, text.length)));
    note.setAttribute("font-size", size.toFixed(1));
    note.textContent = text;
    // Above the counters, so a note on a hex with an enemy in it stays readable.
    (el.ownerSVGElement || el.parentNode).appendChild(note);
  }

  // The marked hexes' wash, above the counters: ONE path of every hex's outline, not a polygon
  // each. The layout after the marks is the counter step's largest part (bench_board.py, 106
  // hexes for the village's M24: ~870 new layout objects, 28 ms idle), and each shape is one.
  // It takes no pointer: the hexes under it answer, and their aria-labels say the words.
  function shade(hexes) {
    const parts = [];
    let svg = null;
    for (const h of hexes) {
      const el = hexElement(h.hex);
      if (!el) { continue; }
      svg = svg || el.ownerSVGElement;
      parts.push("M" + (el.getAttribute("points") || "").trim().split(/\s+/).join("L") + "Z");
    }
    if (!svg || !parts.length) { return; }
    const wash = document.createElementNS(SVG, "path");
    wash.setAttribute("d", parts.join(""));
    wash.setAttribute("class", "board-mark");
    wash.setAttribute("pointer-events", "none");
    svg.appendChild(wash);
  }

  // The same hexes as links in the panel: for keyboard and phone users, and maps without them.
  function listPlaces(unit, hexes) {
    const box = document.getElementById("places");
    if (!box) { return; }
    box.innerHTML = "";
    if (!hexes.length) {
      const p = document.createElement("p");
      p.textContent = unit + " may do nothing now: choose another counter.";
      box.appendChild(p);
      return;
    }
    const details = document.createElement("details");
    details.className = "places";
    details.open = true;
    const summary = document.createElement("summary");
    summary.textContent = "Where " + unit + " may act";
    const list = document.createElement("ul");
    for (const h of hexes) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = base() + "?unit=" + encodeURIComponent(unit) + "&hex=" + encodeURIComponent(h.hex);
      link.setAttribute("data-place", h.hex);
      link.textContent = h.actions.join(", ") + " at " + h.hex + (h.notes.length ? " (" + h.notes.join("; ") + ")" : "");
      item.appendChild(link);
      list.appendChild(item);
    }
    details.append(summary, list);
    box.appendChild(details);
  }

  async function choose(unit) {
    const where = base();
    if (!where || !unit) { return; }
    clear();
    clearPreview();
    chosen = unit;
    const mine = ++asked;
    for (const el of document.querySelectorAll('svg g.counter[data-unit="' + cssEscape(unit) + '"]')) {
      el.classList.add("chosen");
    }
    for (const el of document.querySelectorAll('[data-choose-unit="' + cssEscape(unit) + '"]')) {
      el.setAttribute("aria-current", "true");
      el.classList.add("chosen");
    }
    let response;
    try {
      response = await fetch(where + "/offers?unit=" + encodeURIComponent(unit), { credentials: "same-origin" });
    } catch (error) {
      info("The server could not be reached: nothing was marked; try again.");
      return;
    }
    if (mine !== asked) { return; }
    if (!response.ok) {
      let text = "";
      try { text = (await response.json()).message || ""; } catch (error) { text = ""; }
      info("No hexes for " + unit + (text ? ": " + text : "") + ".");
      return;
    }
    const data = await response.json();
    if (mine !== asked) { return; }
    chosen = unit;
    shade(data.hexes); // first: the notes go above it
    for (const h of data.hexes) { mark(h); }
    listPlaces(unit, data.hexes);
    info(data.hexes.length
      ? unit + (data.from ? " in " + data.from : "") + " may act at " + data.hexes.length + " marked hex"
        + (data.hexes.length > 1 ? "es" : "") + ": " + data.hexes.map((h) => h.hex).join(", ") + ". Choose one."
      : unit + " may do nothing now: choose another counter.");
    document.documentElement.dataset.boardUnit = unit; // marked: what scripts and tests wait for
    document.dispatchEvent(new CustomEvent("ordnance:marked", { detail: { unit: unit, hexes: data.hexes } }));
  }

  function drawLos() {
    for (const el of document.querySelectorAll(".board-los")) { el.remove(); }
    const preview = document.querySelector("[data-preview][data-los-from][data-los-to]");
    if (!preview) { return; }
    const from = hexElement(preview.getAttribute("data-los-from"));
    const to = hexElement(preview.getAttribute("data-los-to"));
    if (!from || !to || !from.ownerSVGElement) { return; }
    const a = centre(from), b = centre(to);
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("class", "board-los");
    line.setAttribute("x1", a.x.toFixed(1)); line.setAttribute("y1", a.y.toFixed(1));
    line.setAttribute("x2", b.x.toFixed(1)); line.setAttribute("y2", b.y.toFixed(1));
    line.setAttribute("pointer-events", "none");
    from.ownerSVGElement.appendChild(line);
  }

  async function showPreview(query) {
    const where = base();
    const box = document.getElementById("preview-box");
    if (!where || !box) { return; }
    const mine = ++asked;
    let response;
    try {
      response = await fetch(where + "/preview?" + query.toString(), { credentials: "same-origin" });
    } catch (error) {
      info("The server could not be reached: no preview; try again.");
      return;
    }
    const html = await response.text();
    if (mine !== asked) { return; }
    box.innerHTML = html;
    drawLos();
    const section = box.querySelector("[data-preview]");
    // Scrolled into view after the frame that shows it: scrollIntoView reads layout, and
    // read at once it would lay the page (and its map) out a second time before the paint.
    if (section && section.scrollIntoView) {
      requestAnimationFrame(() => setTimeout(() => {
        if (section.isConnected) { section.scrollIntoView({ block: "nearest" }); }
      }, 0));
    }
  }

  function previewHex(hex, pick) {
    if (!chosen) { return; }
    const query = new URLSearchParams({ unit: chosen, hex: hex });
    if (pick !== undefined && pick !== null) { query.set("pick", pick); }
    showPreview(query);
  }

  document.addEventListener("ordnance:unit", (event) => { choose(event.detail && event.detail.unit); });
  document.addEventListener("ordnance:hex", (event) => {
    const hex = event.detail && event.detail.hex;
    const el = hex ? hexElement(hex) : null;
    if (el && el.hasAttribute("data-action")) { previewHex(hex); }
  });
  // A new view of the table (<main> swapped): its map has none of the old marks, and offers
  // still on their way are for the old version. After one's own action (a form of this page
  // was sent) the choice ends; after a push (the other side, the AI) a unit still chosen, or
  // being chosen, that may still act is asked for again, so that the hexes marked are this
  // version's and a click on one always opens its preview.
  let sent = false;
  document.addEventListener("submit", (event) => {
    if (event.target instanceof HTMLFormElement && !event.target.hasAttribute("data-preview-form")) { sent = true; }
  });
  document.addEventListener("ordnance:swapped", () => {
    const was = chosen;
    const own = sent;
    sent = false;
    chosen = null;
    asked += 1;
    delete document.documentElement.dataset.boardUnit;
    drawLos();
    if (was && !own && document.querySelector('[data-choose-unit="' + cssEscape(was) + '"]')) { choose(was); }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && (chosen || document.querySelector("#preview-box [data-preview]"))) {
      clear();
      clearPreview();
      info("Choice cleared: choose one of your counters.");
    }
  });

  // A field of the preview changed: the preview again, with the values (odds follow them).
  document.addEventListener("change", (event) => {
    const form = event.target instanceof Element ? event.target.closest("[data-preview-form]") : null;
    if (!form) { return; }
    clearTimeout(refreshing);
    refreshing = setTimeout(() => { showPreview(new URLSearchParams(new FormData(form))); }, 120);
  });
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-preview-form")) { return; }
    event.preventDefault();
    event.stopPropagation();
    clearTimeout(refreshing);
    showPreview(new URLSearchParams(new FormData(form)));
  }, true);

  // Links of the panel (the same as the map for keyboard and phone users).
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target || !base()) { return; }
    const unitLink = target.closest("[data-choose-unit], a.unit[data-unit]");
    if (unitLink) {
      event.preventDefault();
      event.stopPropagation();
      const unit = unitLink.getAttribute("data-choose-unit") || unitLink.getAttribute("data-unit");
      document.dispatchEvent(new CustomEvent("ordnance:unit", { detail: { unit: unit } }));
      return;
    }
    const place = target.closest("a[data-place]");
    if (place) {
      event.preventDefault();
      event.stopPropagation();
      const url = new URL(place.href, location.href);
      const unit = url.searchParams.get("unit");
      const pick = url.searchParams.get("pick");
      const hex = place.getAttribute("data-place");
      (chosen === unit ? Promise.resolve() : choose(unit)).then(() => previewHex(hex, pick));
      return;
    }
    const sideAction = target.closest("a[data-side-action]");
    if (sideAction) {
      event.preventDefault();
      event.stopPropagation();
      clear();
      showPreview(new URLSearchParams({ action: sideAction.getAttribute("data-side-action") }));
      return;
    }
  }, true);
  document.addEventListener("DOMContentLoaded", drawLos);
})();
