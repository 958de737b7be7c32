// ordnance table: swap <main> in place after a form, a unit link or a server-sent event.
// The pages work without this script; it only spares the reloads. Written for this project.
"use strict";
(function () {
  const parser = new DOMParser();
  let source = null;

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

  function listen() {
    const here = main();
    if (!here || !here.dataset.events || !window.EventSource) { return; }
    source = new EventSource(here.dataset.events + "?seen=" + here.dataset.version);
    const live = () => document.getElementById("live");
    source.addEventListener("hello", () => { const l = live(); if (l) { l.textContent = "live"; } });
    source.addEventListener("version", async (event) => {
      const now = parseInt(event.data, 10);
      const seen = parseInt(main().dataset.version || "0", 10);
      if (now > seen) {
        await load(cleanUrl());
        say("The game moved on: version " + now + ".");
      }
    });
    source.onerror = () => { const l = live(); if (l) { l.textContent = "reconnecting"; } };
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.hasAttribute("data-plain")) { return; }
    event.preventDefault();
    const data = new FormData(form);
    if ((form.method || "get").toLowerCase() === "get") {
      const url = new URL(form.action, location.href);
      for (const [key, value] of data) { url.searchParams.set(key, value); }
      await load(url.toString(), true);
    } else {
      const response = await fetch(form.action, { method: "POST", body: data, credentials: "same-origin" });
      swap(await response.text(), response.redirected ? response.url : null, false);
    }
    const notice = document.querySelector("#notice p");
    if (notice) { notice.setAttribute("tabindex", "-1"); }
  });

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

  window.addEventListener("popstate", () => { load(location.href); });
  document.addEventListener("DOMContentLoaded", listen);
})();
