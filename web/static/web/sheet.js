// The desk's match sheet (web/desk/sheet.py), keyboard first: Tab to the next cell, Enter
// to the next line (the engine checks the lines typed so far: each line's result and the
// games' running totals appear beside it), Enter on the empty line after the last hand
// saves, as does Ctrl+Enter anywhere. Without this script the sheet is a plain
// form with a dozen lines and its button; the server checks it the same way.
(function () {
  "use strict";
  var form = document.getElementById("sheet-form");
  if (!form) return;
  var body = form.querySelector("tbody[data-lines]");
  var rowsField = form.elements.rows;
  var status = form.querySelector("[data-status]");
  var numbers = new Intl.NumberFormat(document.documentElement.lang || undefined, {
    useGrouping: false,
  });
  var asked = 0; // requests sent; only the newest answer is shown
  // A pair of scores is one unit in the page's direction (isolated: U+2067 or U+2066 ...
  // U+2069), the first player's first, as the server writes it (web/templatetags/scores.py).
  var isolate = document.documentElement.dir === "rtl" ? "\u2067" : "\u2066";

  function lines() {
    return Array.prototype.slice.call(body.querySelectorAll("tr[data-line]"));
  }
  function cell(tr, name) {
    return tr.querySelector("[name^='" + name + "-']");
  }
  function empty(tr) {
    return (
      ["k", "kd", "dd"].every(function (n) {
        return !cell(tr, n).value.trim();
      }) && !cell(tr, "g").checked
    );
  }
  function lastTyped() {
    var all = lines();
    for (var i = all.length - 1; i >= 0; i--) if (!empty(all[i])) return i;
    return -1;
  }
  // Show the typed lines and one empty line after them; the rest wait hidden.
  function tidy() {
    var last = lastTyped();
    lines().forEach(function (tr, i) {
      tr.hidden = i > last + 1;
    });
  }
  function addLine() {
    var all = lines();
    var copy = all[all.length - 1].cloneNode(true);
    var i = all.length;
    copy.dataset.line = String(i);
    copy.className = "";
    copy.hidden = false;
    Array.prototype.forEach.call(copy.querySelectorAll("input"), function (input) {
      input.name = input.name.replace(/-\d+$/, "-" + i);
      input.removeAttribute("aria-invalid");
      input.removeAttribute("autofocus");
      if (input.type === "checkbox") input.checked = false;
      else input.value = "";
    });
    Array.prototype.forEach.call(copy.querySelectorAll("td"), function (td) {
      if (!td.querySelector("input")) td.textContent = "";
    });
    copy.querySelector("[data-result]").innerHTML = '<span class="totals-inline" data-inline></span>';
    body.appendChild(copy);
    rowsField.value = String(i + 1);
    return copy;
  }
  function nextLine(tr) {
    var all = lines();
    var i = all.indexOf(tr);
    var next = all[i + 1] || addLine();
    next.hidden = false;
    return next;
  }

  function show(answer) {
    var byLine = {};
    answer.rows.forEach(function (r) {
      byLine[r.i] = r;
    });
    lines().forEach(function (tr, i) {
      var r = byLine[i];
      var result = tr.querySelector("[data-result]");
      var hand = tr.querySelector("[data-hand]");
      ["k", "kd", "dd"].forEach(function (n) {
        cell(tr, n).removeAttribute("aria-invalid");
      });
      tr.classList.toggle("good", !!(r && r.ok));
      tr.classList.toggle("bad", !!(r && !r.ok));
      result.textContent = "";
      var inline = document.createElement("span");
      inline.className = "totals-inline";
      Array.prototype.forEach.call(tr.querySelectorAll("[data-game]"), function (td) {
        td.textContent = "";
        td.classList.remove("won");
      });
      hand.textContent = r && r.hand ? numbers.format(r.hand) : "";
      if (r && r.ok) {
        result.insertAdjacentHTML("beforeend", r.result);  // escaped by the server
        var parts = [];
        r.games.forEach(function (g, n) {
          var text = isolate + numbers.format(g.p1) + "–" + numbers.format(g.p2) + "\u2069";
          parts.push(text);
          var td = tr.querySelector("[data-game='" + n + "']");
          if (td) {
            td.textContent = text;
            td.classList.toggle("won", g.won !== null);
          }
        });
        inline.textContent = parts.join(" · ");
      } else if (r) {
        var error = document.createElement("span");
        error.className = "error";
        error.innerHTML = r.error;  // escaped by the server
        result.appendChild(error);
        if (r.cell) cell(tr, r.cell).setAttribute("aria-invalid", "true");
      }
      result.appendChild(inline);
    });
    return answer;
  }

  function check() {
    var mine = ++asked;
    form.setAttribute("aria-busy", "true");
    return fetch(form.dataset.checkUrl, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then(function (answer) {
        if (mine === asked) {
          show(answer);
          form.removeAttribute("aria-busy");
        }
        return answer;
      })
      .catch(function () {
        // Not checked now (offline, signed out): saving checks it anyway.
        form.removeAttribute("aria-busy");
        return null;
      });
  }
  function resultOf(answer, tr) {
    if (!answer) return null;
    var i = Number(tr.dataset.line);
    return answer.rows.filter(function (r) {
      return r.i === i;
    })[0];
  }
  function save() {
    var button = document.getElementById("sheet-save");
    if (button.disabled) return;
    button.disabled = true; // one save at a time (and a sheet sent twice is one anyway)
    form.submit();
  }

  form.addEventListener("submit", function () {
    document.getElementById("sheet-save").disabled = true;
  });
  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.isComposing) return;
    var tr = event.target.closest && event.target.closest("tr[data-line]");
    if (!tr && event.target.id !== "sheet-note") return;
    event.preventDefault();
    if (event.ctrlKey || event.metaKey || !tr) return save();
    if (empty(tr)) return lastTyped() >= 0 ? save() : undefined;
    // On to the next line at once (typing need not wait); the check marks this line.
    var next = nextLine(tr);
    cell(next, "k").focus();
    check().then(function (answer) {
      var r = resultOf(answer, tr);
      if (r && r.finished && status) status.textContent = status.dataset.finished;
    });
  });
  form.addEventListener("change", function (event) {
    var tr = event.target.closest("tr[data-line]");
    if (!tr) return;
    if (event.target.type === "checkbox") {
      if (event.target.checked) {
        cell(tr, "kd").value = "0";
        cell(tr, "dd").focus();
      }
    } else if (event.target.name.indexOf("kd-") === 0) {
      cell(tr, "g").checked = event.target.value.trim() === "0";
    }
  });
  // Leaving a line for another: check what has been typed.
  form.addEventListener("focusout", function (event) {
    var from = event.target.closest && event.target.closest("tr[data-line]");
    var to = event.relatedTarget && event.relatedTarget.closest && event.relatedTarget.closest("tr[data-line]");
    if (from && from !== to && !empty(from)) check();
  });
  tidy();
  if (lastTyped() >= 0) check();
})();
