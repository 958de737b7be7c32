// ordnance table: swap <main> in place after a form, a unit link or a server-sent event.
// The pages work without this script; it only spares the reloads. Written for this project.
// An answer that is not a table page (a refusal in plain text or JSON, a message page, a
// network failure) never replaces the table: it is said in the page's notice instead.
"use strict";
(function () {
  const parser = new DOMParser();
  let source = null;
  let busy = false; // a form of this page is in flight: its answer brings the new view
  let pushed = 0; // the latest version a push announced

  function main() { return document.getElementById("main"); }

  // A table page (its <main> carries the version it shows): the only answer swapped in.
  function tablePage(html) {
    const fresh = parser.parseFromString(html, "text/html").getElementById("main");
    return fresh && fresh.hasAttribute("data-version") ? fresh : null;
  }

  function swap(html, url, push) {
    // Parsed once and its nodes moved in: the village map's page is ~300 KB, and a second
    // parse plus innerHTML's write-and-reparse made a swap 160-179 ms instead of 95-123 ms
    // (median, Chromium, load average 6-9 on 2 cores; measured beside bench_board.py).
    const doc = parser.parseFromString(html, "text/html");
    const fresh = doc.getElementById("main");
    if (!fresh) { return; }
    const current = main();
    for (const name of ["data-version", "data-game", "data-side", "data-events"]) {
      if (fresh.hasAttribute(name)) { current.setAttribute(name, fresh.getAttribute(name)); }
    }
    // The last action's marks (static/news.js): as the fresh page has them, or none.
    for (const name of ["data-last-entry", "data-last-hexes", "data-last-units"]) {
      if (fresh.hasAttribute(name)) { current.setAttribute(name, fresh.getAttribute(name)); } else { current.removeAttribute(name); }
    }
    current.replaceChildren(...fresh.childNodes);
    const title = doc.title;
    if (title) { document.title = title; }
    if (url) {
      if (push) { history.pushState({}, "", url); } else { history.replaceState({}, "", url); }
    }
    document.dispatchEvent(new CustomEvent("ordnance:swapped"));
  }

  // Fetch, or say why not: null when the request never got an answer.
  async function ask(url, options) {
    try {
      return await fetch(url, Object.assign({ credentials: "same-origin" }, options));
    } catch (error) {
      say("The server could not be reached (the network or the server is down): nothing was"
        + " sent or changed; check your connection, then try again.", true);
      return null;
    }
  }

  // Show the answer: a table page replaces the table; anything else is said in the notice.
  // True when the page now shows the answer's table.
  async function answer(response, url, push) {
    const type = response.headers.get("content-type") || "";
    const html = type.includes("text/html") ? await response.text() : null;
    if (html !== null && (response.ok || tablePage(html))) {
      swap(html, url, push);
      return true;
    }
    say(await explain(response, html), true);
    return false;
  }

  // What a refusal means and what to do, in one sentence from the server's own words.
  async function explain(response, html) {
    let text = "";
    try {
      if (html !== null) {
        const doc = parser.parseFromString(html, "text/html");
        const message = doc.getElementById("message");
        text = message ? message.textContent : doc.title;
      } else if ((response.headers.get("content-type") || "").includes("json")) {
        const body = await response.json();
        text = typeof body.message === "string" ? body.message : "";
      } else {
        text = await response.text();
      }
    } catch (error) { text = ""; }
    // One sentence: the server's words without their own closing stop (added below).
    text = text.replace(/^refused:\s*/, "").replace(/\s+/g, " ").trim().slice(0, 400).replace(/[.\s]+$/, "");
    const wait = parseInt(response.headers.get("Retry-After") || "", 10);
    const later = /try again/i.test(text) ? "" : (wait > 0 ? "; try again in " + wait + " s" : "; try again later");
    // The server's own sentence (a page's message) says what failed and what to do already.
    if (/^[A-Z]/.test(text)) { return text + (response.status === 503 || response.status === 429 ? later : "") + "."; }
    switch (response.status) {
      case 403: return "Not done: " + (text || "this browser may not act here: open your private link again") + ".";
      case 413: return "Not sent, it is too large: " + (text || "shorten it") + ".";
      case 429: return "The server is busy: " + (text || "too many requests") + later + ".";
      case 503: return "The server cannot answer just now: " + (text || "it is busy or its database is away") + later + ".";
      default: return "Not done (the server answered " + response.status + "): "
        + (text || "reload the page and try again") + ".";
    }
  }

  async function load(url, push) {
    const response = await ask(url);
    return response ? answer(response, push === undefined ? null : response.url, push) : false;
  }

  function cleanUrl() {
    const url = new URL(location.href);
    url.searchParams.delete("notice");
    url.searchParams.delete("seen");
    return url.toString();
  }

  // The page's live region for sentences (made at the top of <main> when the page has none).
  function noticeBox() {
    let box = document.getElementById("notice");
    if (!box) {
      box = document.createElement("div");
      box.id = "notice";
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
      const here = main() || document.body;
      here.insertBefore(box, here.firstChild);
    }
    return box;
  }

  function say(text, failed) {
    const box = noticeBox();
    box.innerHTML = "";
    const p = document.createElement("p");
    p.className = failed ? "notice failed" : "notice";
    p.textContent = text;
    box.appendChild(p);
  }

  let poked = false; // the server asked for a fresh look at the same version (the AI's news)
  let retry = null; // the next look at a pushed version this page has not reached
  let wait = 1000;

  async function catchUp() {
    const seen = parseInt(main().dataset.version || "0", 10);
    if (busy || (pushed <= seen && !poked)) { return; }
    busy = true;
    poked = false;
    if (retry !== null) { clearTimeout(retry); retry = null; }
    try {
      // The server says in the notice what happened since the version this page showed.
      const url = new URL(cleanUrl());
      url.searchParams.set("seen", String(seen));
      await load(url.toString());
    } finally { busy = false; }
    const now = parseInt(main().dataset.version || "0", 10);
    if (now > seen) {
      // A push that came while this one loaded (the AI stores its commands one after
      // another): look again at once.
      wait = 1000;
      catchUp();
    } else if (pushed > now) {
      // The load failed (the server busy or away) and the last push may be the last one for
      // a while (the AI's final command): look again later, less often each time.
      retry = setTimeout(() => { retry = null; catchUp(); }, wait);
      wait = Math.min(wait * 2, 16000);
    }
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
    // Same version, news all the same: the server's AI stopped and the page should say why.
    source.addEventListener("ai", () => { poked = true; catchUp(); });
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
      const response = await ask(target, { method: "POST", body: data });
      if (response) { await answer(response, response.redirected ? response.url : null, false); }
    }
  }

  // Choosing a counter and pointing at hexes: static/board.js.

  // The hovered or focused hex's label and terrain, as text: the SVG <title> says the same on hover.
  // Written once a frame, with the frame's own layout: written at once, each hex the pointer
  // crossed (and a click's mouseover and focus) made the next hit test lay the page out again,
  // 14 of the 18 layouts of a hover-and-click in bench_board.py's trace.
  // A sentence board.js wrote meanwhile (a choice's hexes) is newer than the hover: it stays.
  let hexText = null;
  function showHex(event) {
    const target = event.target instanceof Element ? event.target.closest("[data-hex]") : null;
    const info = document.getElementById("hex-info");
    if (!target || !info) { return; }
    const label = target.getAttribute("data-hex");
    const hex = document.getElementById("hex-" + label);
    const title = hex ? hex.querySelector("title") : null;
    const pending = hexText !== null;
    hexText = "Hex " + (title ? title.textContent : label);
    if (pending) { return; }
    const before = info.textContent;
    requestAnimationFrame(() => {
      if (info.isConnected && info.textContent === before && before !== hexText) {
        info.textContent = hexText;
      }
      hexText = null;
    });
  }
  document.addEventListener("mouseover", showHex);
  document.addEventListener("focusin", showHex);

  window.addEventListener("popstate", () => { load(location.href); });
  document.addEventListener("DOMContentLoaded", () => {
    listen();
    document.dispatchEvent(new CustomEvent("ordnance:swapped"));
  });
})();
