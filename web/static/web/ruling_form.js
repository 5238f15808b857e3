// The dispute page's ruling form: show only the fields the chosen ruling needs (all of
// them stay in the form without JavaScript; the server checks what each ruling needs).
(function () {
  "use strict";
  var form = document.getElementById("rule-form");
  if (!form) return;
  var kind = form.querySelector("select[name$='type']");
  function update() {
    Array.prototype.forEach.call(form.querySelectorAll(".ruling-part"), function (part) {
      part.hidden = part.dataset.for.split(" ").indexOf(kind.value) < 0;
    });
  }
  kind.addEventListener("change", update);
  update();
})();
