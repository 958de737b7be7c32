// ordnance table: the map's pointers. A drag pans, two pointers pinch, the wheel zooms, and a
// short press is a click on a counter or a hex (a drag's closing click is swallowed). Written
// for this project; plain JS, no build step. static/map.js attaches it with what it moves:
// board = {inMap(event), frame(), zoom(), panBy(dx, dy), zoomAbout(factor, x, y),
// activate(target), closeStack()}.
window.OrdnancePointer = {
  attach: function (board) {
    const DRAG = 5; // CSS px a pointer may move and still be a click
    const pointers = new Map();
    let press = null; // {x, y, moved}
    let pinch = null; // {d, k, mid}
    let swallow = false; // the click that ends a drag is not a click

    document.addEventListener("pointerdown", (event) => {
      if (!board.inMap(event) || (event.pointerType === "mouse" && event.button !== 0)) { return; }
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      swallow = false;
      if (pointers.size === 1) {
        press = { x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
      } else if (pointers.size === 2) {
        const [a, b] = Array.from(pointers.values());
        pinch = { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, k: board.zoom(),
          mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
        if (press) { press.moved = true; }
      }
    });

    document.addEventListener("pointermove", (event) => {
      const last = pointers.get(event.pointerId);
      if (!last || !board.frame()) { return; }
      const dx = event.clientX - last.x, dy = event.clientY - last.y;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (pinch && pointers.size >= 2) {
        const [a, b] = Array.from(pointers.values());
        const d = Math.hypot(a.x - b.x, a.y - b.y) || 1;
        const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
        board.panBy(mid.x - pinch.mid.x, mid.y - pinch.mid.y);
        board.zoomAbout((pinch.k * d / pinch.d) / board.zoom(), mid.x, mid.y);
        pinch.mid = mid;
        return;
      }
      if (!press || press.id !== event.pointerId) { return; }
      if (!press.moved && Math.hypot(event.clientX - press.x, event.clientY - press.y) > DRAG) {
        press.moved = true;
        board.frame().classList.add("dragging");
        try { board.frame().setPointerCapture(event.pointerId); } catch (error) { /* gone */ }
      }
      if (press.moved) { board.panBy(dx, dy); }
    });

    function release(event) {
      if (!pointers.has(event.pointerId)) { return; }
      pointers.delete(event.pointerId);
      if (pointers.size < 2) { pinch = null; }
      if (press && (press.id === event.pointerId || pointers.size === 0)) {
        swallow = press.moved;
        if (pointers.size === 0) { press = null; }
      }
      if (board.frame()) { board.frame().classList.remove("dragging"); }
    }
    document.addEventListener("pointerup", release);
    document.addEventListener("pointercancel", release);

    // Capture: a drag's closing click never reaches a counter, a hex or table.js.
    document.addEventListener("click", (event) => {
      if (!board.inMap(event)) { swallow = false; return; }
      if (swallow) {
        swallow = false;
        event.preventDefault();
        event.stopPropagation();
        return;
      }
      if (event.target.closest(".map-stack")) { return; }
      const target = event.target.closest("g.counter, .hex[data-hex]");
      event.stopPropagation();
      if (target) { event.preventDefault(); board.activate(target); } else { board.closeStack(); }
    }, true);

    document.addEventListener("wheel", (event) => {
      if (!board.inMap(event) || event.ctrlKey && !event.deltaY) { return; }
      event.preventDefault();
      const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
      board.zoomAbout(Math.exp(-event.deltaY * unit * 0.0015), event.clientX, event.clientY);
    }, { passive: false });
  },
};
