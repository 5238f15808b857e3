// The time zone lists of the desk (web/zones.py): typing in the search box above a list
// keeps the zones whose name (city, country, offset) or id holds what was typed, in any
// case and with or without accents, and chooses the first of them; Enter goes to the list.
(function () {
  "use strict";
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLocaleLowerCase();
  }
  function wire(input) {
    var select = document.getElementById(input.getAttribute("data-zone-filter"));
    if (!select) return;
    var options = Array.prototype.slice.call(select.options).map(function (option) {
      return { option: option, text: fold(option.text + " " + option.value) };
    });
    input.addEventListener("input", function () {
      var wanted = fold(input.value.trim());
      var first = null;
      var currentMatches = false;
      options.forEach(function (o) {
        var match = !wanted || o.text.indexOf(wanted) !== -1;
        o.option.hidden = !match;
        if (match && first === null) first = o.option;
        if (match && o.option.selected) currentMatches = true;
      });
      if (first !== null && !currentMatches) first.selected = true;
    });
    input.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault(); // Enter takes the search to the list; it does not send the form
      select.focus();
    });
  }
  function start() {
    document.querySelectorAll("input[data-zone-filter]").forEach(wire);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
