// Dragging my cards into an order of my own on the play page: pointer events, so a mouse,
// a pen and a finger drag alike (the cards have `touch-action: none`: a finger on a card
// drags it instead of scrolling the page). A press that does not move past a few pixels
// stays a click (the card is selected); a drag does not select. The keyboard's way to do
// the same (Alt + arrow keys on a card) is in play.js.
//
// sortable(container, {items, onDrop, onEnd, onStart}): `items` the draggable elements'
// selector inside `container`; onDrop(code, targetCode, after) when a card identified by
// its data-card is dropped before (after=false) or after (after=true) another one;
// onEnd() when a drag ends without a move (dropped in place, cancelled).
// Also for a list of rows (the lineup, lineup.js): `key` the data attribute naming an item
// (default "card"), `axis: "y"` to drop before or after a row by the pointer's height,
// `handle` a selector inside an item where a press may start a drag (elsewhere the finger
// scrolls the page).

var THRESHOLD = 8; // px before a press becomes a drag

export function sortable(container, options) {
  var press = null; // {id, el, x, y, dragging, target, after}
  var key = options.key || "card";
  var vertical = options.axis === "y";

  function cards() {
    return Array.prototype.slice.call(container.querySelectorAll(options.items));
  }

  function nearest(x, y, except) {
    var best = null, bestDistance = Infinity;
    cards().forEach(function (el) {
      if (el === except) return;
      var r = el.getBoundingClientRect();
      var cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      // Rows count more than columns: a card is dropped into the row the pointer is on.
      var d = vertical ? Math.abs(y - cy)
        : Math.abs(x - cx) + 3 * Math.max(0, Math.abs(y - cy) - r.height / 2);
      if (d < bestDistance) { best = el; bestDistance = d; }
    });
    if (!best) return null;
    var r = best.getBoundingClientRect();
    if (vertical) return { el: best, after: y > r.top + r.height / 2 };
    var rtl = getComputedStyle(container).direction === "rtl";
    var pastMiddle = x > r.left + r.width / 2;
    return { el: best, after: rtl ? !pastMiddle : pastMiddle };
  }

  function mark(target) {
    cards().forEach(function (el) { el.classList.remove("drop-before", "drop-after"); });
    if (target) target.el.classList.add(target.after ? "drop-after" : "drop-before");
  }

  function end() {
    if (!press) return;
    press.el.classList.remove("dragging");
    press.el.style.transform = "";
    mark(null);
    container.classList.remove("sorting");
    press = null;
  }

  container.addEventListener("pointerdown", function (e) {
    if (e.button !== 0 || !e.isPrimary) return;
    var el = e.target.closest(options.items);
    if (!el || !container.contains(el)) return;
    if (options.handle && !e.target.closest(options.handle)) return;
    press = { id: e.pointerId, el: el, x: e.clientX, y: e.clientY, dragging: false, target: null };
  });

  container.addEventListener("pointermove", function (e) {
    if (!press || e.pointerId !== press.id) return;
    var dx = e.clientX - press.x, dy = e.clientY - press.y;
    if (!press.dragging) {
      if (Math.abs(dx) + Math.abs(dy) < THRESHOLD) return;
      press.dragging = true;
      try { press.el.setPointerCapture(e.pointerId); } catch (err) { /* gone already */ }
      press.el.classList.add("dragging");
      container.classList.add("sorting");
      if (options.onStart) options.onStart();
    }
    e.preventDefault();
    press.el.style.transform = "translate(" + dx + "px, " + dy + "px)";
    press.target = nearest(e.clientX, e.clientY, press.el);
    mark(press.target);
  });

  function release(e) {
    if (!press || e.pointerId !== press.id) return;
    var done = press.dragging ? press : null;
    end();
    if (!done) return; // a plain press: the click that follows selects the card
    // The click the browser sends after a drag must not select the card.
    var swallow = function (c) { c.stopPropagation(); c.preventDefault(); };
    container.addEventListener("click", swallow, { capture: true, once: true });
    window.setTimeout(function () { container.removeEventListener("click", swallow, true); }, 0);
    if (done.target && done.target.el !== done.el) {
      options.onDrop(done.el.dataset[key], done.target.el.dataset[key], done.target.after);
    } else if (options.onEnd) {
      options.onEnd();
    }
  }

  container.addEventListener("pointerup", release);
  container.addEventListener("pointercancel", function (e) {
    if (!press || e.pointerId !== press.id) return;
    var was = press.dragging;
    end();
    if (was && options.onEnd) options.onEnd();
  });

  return { dragging: function () { return Boolean(press && press.dragging); } };
}
