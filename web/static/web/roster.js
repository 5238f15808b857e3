// The roster's search (web/templates/desk/_roster_tools.html): rows whose name holds what
// is typed, accents and case aside (Ș finds s, Ž finds z), kept after htmx swaps the panel.
(function () {
  "use strict";
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLocaleLowerCase();
  }
  function apply() {
    var box = document.querySelector("[data-roster-search]");
    if (!box) return;
    var wanted = fold(box.value.trim());
    var shown = 0;
    var rows = document.querySelectorAll("#checkin-panel tr.checkin-row");
    rows.forEach(function (row) {
      var match = !wanted || fold(row.getAttribute("data-name") || "").indexOf(wanted) !== -1;
      row.hidden = !match;
      if (match) shown += 1;
    });
    var none = document.getElementById("roster-none");
    if (none) none.hidden = shown > 0 || rows.length === 0;
  }
  function start() {
    var box = document.querySelector("[data-roster-search]");
    if (!box) return;
    box.addEventListener("input", apply);
    // Enter in the search with one row left: check that player in (the keyboard's way).
    box.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      var rows = Array.prototype.filter.call(
        document.querySelectorAll("#checkin-panel tr.checkin-row"),
        function (row) { return !row.hidden; }
      );
      if (rows.length !== 1) return;
      var button = rows[0].querySelector("button[data-action=check-in]");
      if (button) button.click();
    });
    document.body.addEventListener("htmx:afterSwap", function () {
      apply();
      if (box.value) { box.select(); box.focus(); }
    });
    apply();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
