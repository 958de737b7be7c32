// ordnance table: the stack card of the map, a card beside a hex listing each counter on it,
// readable (its counter drawn large, its words) and, for one's own, choosable. Written for this
// project; plain JS, no build step. static/map.js opens it (window.OrdnanceStack.show) when a
// stack is clicked, and keeps it beside its hex while the view moves (place).
window.OrdnanceStack = (function () {
  // A counter's title: "NAME (UNIT, SIDE) in HEX: NOTATION; STATE".
  const WORDS = /^(.*) \(([^,]+), ([^)]+)\) in ([^:;]+)(?:: ([^;]*))?; (.*)$/;
  let open = null; // {label, wrap}: the open card's hex and the frame it sits in

  function describe(g) {
    const title = g.querySelector("title");
    const text = title ? title.textContent : g.getAttribute("data-unit");
    const found = WORDS.exec(text || "");
    return found ? { name: found[1], unit: found[2], side: found[3], hex: found[4],
      notation: found[5] || "", state: found[6] } : { name: text, unit: g.getAttribute("data-unit"),
      side: g.getAttribute("data-side"), hex: g.getAttribute("data-hex"), notation: "", state: "" };
  }

  // The counter as drawn, at a readable size: a copy of its body in a small SVG of its own.
  function picture(g) {
    const face = g.querySelector(".counter-face");
    const body = g.querySelector(".counter-body");
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    const c = face ? face.width.baseVal.value : 40;
    const pad = c * 0.14;
    svg.setAttribute("viewBox", [-c / 2 - pad, -c / 2 - pad, c + 2 * pad, c + 2 * pad].join(" "));
    svg.setAttribute("class", "stack-counter");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    if (body) {
      const copy = body.cloneNode(true);
      copy.removeAttribute("transform");
      svg.appendChild(copy);
    }
    return svg;
  }

  function close() {
    const card = document.getElementById("map-stack");
    if (card) { card.remove(); }
    open = null;
  }

  function button(text, className, onClick) {
    const made = document.createElement("button");
    made.type = "button";
    if (className) { made.className = className; }
    made.textContent = text;
    made.addEventListener("click", onClick);
    return made;
  }

  // o: {label, first, counters, hexEl, wrap, who, mine(g), choose(unit), act(label), back()}:
  // the hex, the unit clicked, the counters on the hex, the hex's shape, the map's frame, the
  // unit a marked hex acts for, and what choosing, acting and closing do.
  function show(o) {
    close();
    if (!o.counters.length) { return; }
    const acts = o.hexEl ? o.hexEl.getAttribute("data-action") : null;
    const card = document.createElement("section");
    card.id = "map-stack";
    card.className = "map-stack";
    card.setAttribute("role", "dialog");
    card.setAttribute("aria-labelledby", "map-stack-h");
    const head = document.createElement("h3");
    head.id = "map-stack-h";
    const title = o.hexEl && o.hexEl.querySelector("title");
    head.textContent = "Hex " + (title ? title.textContent : o.label) + ": "
      + o.counters.length + (o.counters.length === 1 ? " unit" : " units");
    const shut = button("Close", "stack-close", () => { close(); o.back(); });
    card.append(head, shut);
    if (acts) {
      // For whom: the card may list other units of one's own (static/map.js, activate).
      const text = "Act on " + o.label + " (" + acts.split(/\s+/).join(", ") + ")"
        + (o.who ? " with " + o.who : "");
      card.appendChild(button(text, "stack-act", () => { close(); o.act(o.label); }));
    }
    const list = document.createElement("ul");
    for (const g of o.counters) {
      const d = describe(g);
      const item = document.createElement("li");
      item.className = "side-" + (g.getAttribute("data-side") || "").replace(/[^a-z0-9_-]+/gi, "-").toLowerCase();
      if (g.getAttribute("data-unit") === o.first) { item.classList.add("first"); }
      const words = document.createElement("div");
      words.className = "stack-words";
      const name = document.createElement("strong");
      name.textContent = d.name + " ";
      const id = document.createElement("code");
      id.textContent = d.unit;
      const line = document.createElement("span");
      line.textContent = d.side + (d.notation ? " \u00b7 " + d.notation : "");
      const state = document.createElement("span");
      state.className = "stack-state";
      state.textContent = d.state;
      words.append(name, id, line, state);
      item.append(picture(g), words);
      if (o.mine(g)) {
        item.appendChild(button("Choose " + d.unit, "", () => { close(); o.choose(d.unit); }));
      }
      list.appendChild(item);
    }
    card.appendChild(list);
    o.wrap.appendChild(card);
    open = { label: o.label, wrap: o.wrap };
    place();
    const first = card.querySelector("button:not(.stack-close)") || shut;
    first.focus({ preventScroll: true });
  }

  // The open card stays beside its hex while the map moves (inside the frame).
  function place() {
    const card = document.getElementById("map-stack");
    if (!card || !open) { return; }
    const hexEl = document.getElementById("hex-" + open.label);
    if (!hexEl) { close(); return; }
    const h = hexEl.getBoundingClientRect(), f = open.wrap.getBoundingClientRect();
    const w = card.offsetWidth, ht = card.offsetHeight;
    const hex = { left: h.left - f.left, right: h.right - f.left, top: h.top - f.top, bottom: h.bottom - f.top };
    let left, top;
    if (hex.right + 6 + w <= f.width || hex.left - 6 - w >= 0) {
      // Beside the hex, to its right when there is room, else to its left.
      left = hex.right + 6 + w <= f.width ? hex.right + 6 : hex.left - 6 - w;
      top = (hex.top + hex.bottom) / 2 - ht / 2;
    } else {
      // A narrow map (a phone): below the hex, or above it, never over it.
      left = (hex.left + hex.right) / 2 - w / 2;
      top = hex.bottom + 6 + ht <= f.height || hex.top < f.height / 2 ? hex.bottom + 6 : hex.top - 6 - ht;
    }
    left = Math.max(4, Math.min(left, f.width - w - 4));
    top = Math.max(4, Math.min(top, f.height - ht - 4));
    card.style.left = left + "px";
    card.style.top = top + "px";
  }

  return { describe: describe, show: show, close: close, place: place };
})();
