// A table wider than its box scrolls inside it (.scroll): such a box must be reachable with
// the keyboard (WCAG 2.1.1; axe's scrollable-region-focusable), so while it scrolls it is a
// tab stop, a region named after its table's caption or the heading before it. A box that
// fits is left alone (no empty tab stop). Checked on load, on resize and whenever the page
// changes (htmx swaps, the live pages' updates).
(function () {
  function nameOf(box) {
    var caption = box.querySelector("caption");
    if (caption) return caption.textContent.trim();
    for (var el = box; el && el !== document.body; el = el.parentElement) {
      for (var prev = el.previousElementSibling; prev; prev = prev.previousElementSibling) {
        if (/^H[1-6]$/.test(prev.tagName)) return prev.textContent.trim();
      }
    }
    return document.title;
  }
  function mark() {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll"), function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", nameOf(box));
        box.dataset.scrollRegion = "";
      } else if (!scrolls && box.dataset.scrollRegion !== undefined) {
        ["tabindex", "role", "aria-label", "data-scroll-region"].forEach(function (a) { box.removeAttribute(a); });
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mark);
  else mark();
  var queued = false;
  function later() {
    if (queued) return;
    queued = true;
    window.requestAnimationFrame(function () { queued = false; mark(); });
  }
  window.addEventListener("resize", later);
  new MutationObserver(later).observe(document.documentElement, { childList: true, subtree: true });
})();
