// A lineup form made easier (the captain's page, the desk's team page): the form works
// without this script, a board number per player (empty: a reserve). With it, the rows
// are the order: the first `data-boards` rows play, on boards 1, 2, …, the rest are
// reserves. A row moves by dragging its grip (drag.js: a mouse, a pen or a finger), by its
// move-up and move-down buttons, or with Alt + the up or down arrow key anywhere in the row
// (up and down as they look: a right-to-left page is the same). After each move the number
// fields (hidden now) are numbered again and the new place is said aloud (aria-live).
// The words come from the page (json_script "lineup-strings", web/play/strings.py).
import { sortable } from "./drag.js";

var stringsEl = document.getElementById("lineup-strings");
var S = stringsEl ? JSON.parse(stringsEl.textContent) : {};

var lang = document.documentElement.lang || "en";

// The text of `key` with its %(name)s filled in; numbers in the page language's digits
// (Persian digits on a Persian page, as the server's middleware writes the rest).
function t(key, values) {
  var text = S[key] || key;
  Object.keys(values || {}).forEach(function (k) {
    var v = values[k];
    v = typeof v === "number" ? v.toLocaleString(lang, { useGrouping: false }) : String(v);
    text = text.split("%(" + k + ")s").join(v);
  });
  return text;
}

function enhance(list) {
  var boards = Number(list.dataset.boards);
  var note = list.parentNode.querySelector("[data-lineup-note]");
  function rows() { return Array.prototype.slice.call(list.querySelectorAll("[data-player]")); }

  function renumber() {
    rows().forEach(function (row, i) {
      var playing = i < boards;
      row.querySelector("input[name^=board-]").value = playing ? String(i + 1) : "";
      row.querySelector("[data-place]").textContent = playing ? t("board_n", { n: i + 1 }) : t("reserve");
      row.classList.toggle("reserve", !playing);
      row.dataset.board = playing ? String(i + 1) : "";
    });
  }

  function say(row) {
    var i = rows().indexOf(row);
    var name = row.querySelector("[data-name]").textContent;
    note.textContent = i < boards ? t("moved_board", { name: name, n: i + 1, of: boards })
      : t("moved_reserve", { name: name });
  }

  function move(row, by) {
    var all = rows(), i = all.indexOf(row), to = Math.max(0, Math.min(all.length - 1, i + by));
    if (to === i) { say(row); return; }
    if (by < 0) list.insertBefore(row, all[to]);
    else list.insertBefore(row, all[to].nextSibling);
    renumber();
    say(row);
  }

  rows().forEach(function (row) {
    row.querySelector("input[name^=board-]").hidden = true;
    var moves = row.querySelector("[data-moves]");
    if (moves) moves.hidden = false;
  });
  list.classList.add("sortable");
  var form = list.parentNode;
  Array.prototype.forEach.call(form.querySelectorAll(".no-js-only"), function (el) { el.hidden = true; });
  Array.prototype.forEach.call(form.querySelectorAll(".js-only"), function (el) { el.hidden = false; });
  renumber();

  list.addEventListener("click", function (e) {
    var button = e.target.closest("[data-move]");
    if (!button) return;
    var row = button.closest("[data-player]");
    move(row, button.dataset.move === "up" ? -1 : 1);
    button.focus(); // the focus stays on the button, with its row in its new place
  });

  list.addEventListener("keydown", function (e) {
    var row = e.target.closest("[data-player]");
    if (!row || !e.altKey || (e.key !== "ArrowUp" && e.key !== "ArrowDown")) return;
    e.preventDefault();
    var focused = document.activeElement;
    move(row, e.key === "ArrowUp" ? -1 : 1);
    if (focused) focused.focus();
  });

  sortable(list, {
    items: "[data-player]",
    key: "player",
    axis: "y",
    handle: "[data-grip]",
    onDrop: function (id, target, after) {
      var row = list.querySelector("[data-player='" + id + "']");
      var other = list.querySelector("[data-player='" + target + "']");
      list.insertBefore(row, after ? other.nextSibling : other);
      renumber();
      say(row);
    },
  });
}

Array.prototype.forEach.call(document.querySelectorAll("[data-lineup]"), enhance);
