// The play page's words: its strings in the reader's language (embedded by the page as
// #play-strings), numbers in the page language's digits, names isolated in sentences, and
// the cards named and drawn (shared by the page and its dialogs: play.js, records.js).
import { suit } from "./melds.js";

var S = JSON.parse(document.getElementById("play-strings").textContent);

// Numbers in the page language's digits (Persian digits on a Persian page), as the
// server's own templates write them; card codes and data-* values stay Latin.
export var lang = document.documentElement.lang || "en";
export function num(n) {
  return typeof n === "number" ? n.toLocaleString(lang, { useGrouping: false }) : String(n);
}

export function t(key, values) {
  var text = S[key] || key;
  Object.keys(values || {}).forEach(function (k) { text = text.split("%(" + k + ")s").join(num(values[k])); });
  return text;
}

export function esc(text) {
  return String(text).replace(/[&<>"']/g, function (c) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
  });
}

// A name inside a sentence, isolated (U+2068 ... U+2069, <bdi> for text): a Persian name in
// a Lithuanian sentence, or a Latin one in a Persian sentence, keeps the words around it.
export function nameIn(players, id) {
  var p = players.filter(function (x) { return x.id === id; })[0];
  return p ? "\u2068" + p.name + "\u2069" : "";
}

var SUIT_SIGNS = ["♣", "♦", "♥", "♠"];
export function cardLabel(code) {
  var r = code.charAt(0) === "T" ? "10" : code.charAt(0);
  return r + SUIT_SIGNS[suit(code)];
}
export function cardName(code) {
  return t("of_" + code.charAt(1), { rank: t("card_" + code.charAt(0)) });
}
// A card's face is an image named in the reader's language ("Queen of hearts", "بی‌بی دل"),
// not "Q, black heart suit"; inside a card button the button carries the name instead.
export function cardFace(code, extra, named) {
  var red = suit(code) === 1 || suit(code) === 2 ? " red" : "";
  if (code.charAt(0) === "T") red += " ten"; // "10♠": three signs in a face made for two
  var name = named === false ? ' aria-hidden="true"' : ' role="img" aria-label="' + esc(cardName(code)) + '"';
  return '<span class="face' + red + (extra || "") + '"' + name + "><bdi>" + esc(cardLabel(code)) + "</bdi></span>";
}

// A button of the page's actions (data-action: the hook tests and clients press).
export function button(action, label, enabled, extra) {
  return '<button type="button" data-action="' + action + '"' + (enabled ? "" : " disabled") +
    (extra || "") + ">" + esc(label) + "</button>";
}
