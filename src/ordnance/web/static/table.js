// ordnance table: swap <main> in place after a form, a unit link or a server-sent event.
// The pages work without this script; it only spares the reloads. Written for this project.
"use strict";
(function () {
  const parser = new DOMParser();
  let source = null;
  let busy = false; // a form of this page is in flight: its answer brings the new view
  let pushed = 0; // the latest version a push announced

  function main() { return document.getElementById("main"); }

  function swap(html, url, push) {
    const fresh = parser.parseFromString(html, "text/html").getElementById("main");
    if (!fresh) { return; }
    const current = main();
    for (const name of ["data-version", "data-game", "data-side", "data-events"]) {
      if (fresh.hasAttribute(name)) { current.setAttribute(name, fresh.getAttribute(name)); }
    }
    current.innerHTML = fresh.innerHTML;
    const title = parser.parseFromString(html, "text/html").title;
    if (title) { document.title = title; }
    if (url) {
      if (push) { history.pushState({}, "", url); } else { history.replaceState({}, "", url); }
    }
  }

  async function load(url, push) {
    const response = await fetch(url, { credentials: "same-origin" });
    swap(await response.text(), push === undefined ? null : response.url, push);
  }

  function cleanUrl() {
    const url = new URL(location.href);
    url.searchParams.delete("notice");
    return url.toString();
  }

  function say(text) {
    const notice = document.getElementById("notice");
    if (notice) { notice.innerHTML = ""; const p = document.createElement("p"); p.className = "notice"; p.textContent = text; notice.appendChild(p); }
  }

  async function catchUp() {
    const seen = parseInt(main().dataset.version || "0", 10);
    if (busy || pushed <= seen) { return; }
    busy = true;
    try {
      await load(cleanUrl());
      say("The game moved on: version " + main().dataset.version + ".");
    } finally { busy = false; }
  }

  function listen() {
    const here = main();
    if (!here || !here.dataset.events || !window.EventSource) { return; }
    source = new EventSource(here.dataset.events + "?seen=" + here.dataset.version);
    const live = () => document.getElementById("live");
    source.addEventListener("hello", () => { const l = live(); if (l) { l.textContent = "live"; } });
    source.addEventListener("version", (event) => {
      pushed = Math.max(pushed, parseInt(event.data, 10));
      catchUp();
    });
    source.onerror = () => { const l = live(); if (l) { l.textContent = "reconnecting"; } };
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.hasAttribute("data-plain")) { return; }
    event.preventDefault();
    busy = true;
    try { await send(form); } finally { busy = false; }
    catchUp();
  });

  async function send(form) {
    const data = new FormData(form);
    // getAttribute: a field named "action" shadows form.action.
    const target = new URL(form.getAttribute("action") || location.href, location.href);
    if ((form.getAttribute("method") || "get").toLowerCase() === "get") {
      const url = target;
      url.search = "";
      for (const [key, value] of data) { url.searchParams.set(key, value); }
      await load(url.toString(), true);
    } else {
      if (target.pathname.endsWith("/do") && window.crypto) {
        // Fresh entropy from this browser, mixed into the fair dice with the server's seed.
        const bytes = new Uint8Array(16);
        crypto.getRandomValues(bytes);
        data.set("entropy", Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""));
      }
      const response = await fetch(target, { method: "POST", body: data, credentials: "same-origin" });
      swap(await response.text(), response.redirected ? response.url : null, false);
    }
  }

  document.addEventListener("click", async (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) { return; }
    const link = target.closest("a.unit");
    const counter = link ? null : target.closest("svg [data-unit]");
    if (!link && !counter) { return; }
    const here = main();
    const side = here.dataset.side;
    if (!side) { return; }
    event.preventDefault();
    const unit = link ? link.dataset.unit : counter.getAttribute("data-unit");
    const url = new URL("/games/" + here.dataset.game + "/" + side, location.href);
    url.searchParams.set("unit", unit);
    await load(url.toString(), true);
  });

  // The hovered or focused hex's label and terrain, as text: the SVG <title> says the same on hover.
  function showHex(event) {
    const target = event.target instanceof Element ? event.target.closest("[data-hex]") : null;
    const info = document.getElementById("hex-info");
    if (!target || !info) { return; }
    const label = target.getAttribute("data-hex");
    const hex = document.getElementById("hex-" + label);
    const title = hex ? hex.querySelector("title") : null;
    info.textContent = "Hex " + (title ? title.textContent : label);
  }
  document.addEventListener("mouseover", showHex);
  document.addEventListener("focusin", showHex);

  window.addEventListener("popstate", () => { load(location.href); });
  document.addEventListener("DOMContentLoaded", listen);
})();
