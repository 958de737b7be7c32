// ordnance table: on a phone, the side panel's sections fold under their headings (the units
// and the log start folded); a desktop shows every section open. Written for this project;
// plain JS, no build step. Set up at load and after every swap of <main> (ordnance:swapped).
(function () {
  const folds = {}; // section class -> folded?
  const narrow = window.matchMedia("(max-width: 900px)");

  function foldable() {
    for (const section of document.querySelectorAll(".panel > section")) {
      const h2 = section.querySelector(":scope > h2");
      if (!h2 || h2.querySelector("button.fold")) { continue; }
      const key = section.className.split(/\s+/)[0] || h2.textContent;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "fold";
      button.dataset.fold = key;
      while (h2.firstChild) { button.appendChild(h2.firstChild); }
      h2.appendChild(button);
      if (!(key in folds)) { folds[key] = /\b(units|log)\b/.test(section.className); }
      button.addEventListener("click", () => {
        if (narrow.matches) { folds[key] = !folds[key]; applyFolds(); }
      });
    }
    applyFolds();
  }

  // Folded only on a narrow screen: a desktop shows every section open.
  function applyFolds() {
    for (const button of document.querySelectorAll(".panel > section > h2 > button.fold")) {
      const folded = !!folds[button.dataset.fold] && narrow.matches;
      button.closest("section").classList.toggle("folded", folded);
      // On a wide screen the heading folds nothing: no tab stop, no state to announce.
      button.tabIndex = narrow.matches ? 0 : -1;
      if (narrow.matches) { button.setAttribute("aria-expanded", String(!folded)); } else { button.removeAttribute("aria-expanded"); }
    }
  }
  narrow.addEventListener("change", applyFolds);

  document.addEventListener("ordnance:swapped", foldable);
  document.addEventListener("DOMContentLoaded", foldable);
  if (document.readyState !== "loading") { foldable(); }
})();
