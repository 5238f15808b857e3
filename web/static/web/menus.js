// A menu made of <details> (the players' language menu) closes as a menu does: Escape
// closes it and gives the focus back to its button (WCAG 2.1.2, no keyboard trap; 1.4.13,
// content on demand dismissable), and a click or focus outside it closes it.
(function () {
  function openMenus() { return document.querySelectorAll("details.lang-menu[open]"); }
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    Array.prototype.forEach.call(openMenus(), function (menu) {
      menu.open = false;
      if (menu.contains(document.activeElement) || document.activeElement === document.body) {
        menu.querySelector("summary").focus();
      }
      e.preventDefault();
    });
  });
  function outside(e) {
    Array.prototype.forEach.call(openMenus(), function (menu) {
      if (!menu.contains(e.target)) menu.open = false;
    });
  }
  document.addEventListener("click", outside);
  document.addEventListener("focusin", outside);
})();
