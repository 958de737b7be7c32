// ordnance table: mark the last action on the map (its hexes and counters get the class
// "last-action") from the data attributes the server puts on <main>: data-last-hexes and
// data-last-units, space-separated. Runs at load and after every swap (ordnance:swapped).
// Written for this project; it touches nothing but that class.
"use strict";
(function () {
  function mark() {
    const here = document.getElementById("main");
    if (!here) { return; }
    for (const old of document.querySelectorAll(".last-action")) { old.classList.remove("last-action"); }
    const hexes = (here.dataset.lastHexes || "").split(" ").filter(Boolean);
    const units = (here.dataset.lastUnits || "").split(" ").filter(Boolean);
    for (const label of hexes) {
      const hex = document.getElementById("hex-" + label);
      if (hex) { hex.classList.add("last-action"); }
    }
    for (const unit of units) {
      for (const counter of document.querySelectorAll("svg g.counter[data-unit]")) {
        if (counter.getAttribute("data-unit") === unit) { counter.classList.add("last-action"); }
      }
    }
  }
  document.addEventListener("ordnance:swapped", mark);
  document.addEventListener("DOMContentLoaded", mark);
})();
