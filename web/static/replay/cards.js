/* SVG playing cards, drawn here (no image from elsewhere): cardSvg("7H"), cardBack(). */
(function (global) {
  "use strict";
  var SUITS = { C: ["♣", "clubs", "#1d2a22"], D: ["♦", "diamonds", "#b3261e"],
                H: ["♥", "hearts", "#b3261e"], S: ["♠", "spades", "#1d2a22"] };
  var RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  var NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function cardSvg(code, extraClass) {
    var rank = code.charAt(0), suit = SUITS[code.charAt(1)];
    if (!suit) { return cardBack(); }
    var label = RANKS[rank] || rank;
    var name = (NAMES[rank] || rank) + " of " + suit[1];
    return '<svg class="card ' + (extraClass || "") + '" data-card="' + esc(code) +
      '" viewBox="0 0 60 84" role="img" aria-label="' + esc(name) + '">' +
      '<title>' + esc(name) + '</title>' +
      '<rect x="1" y="1" width="58" height="82" rx="6" fill="#fff" stroke="#888"/>' +
      '<text x="6" y="20" font-size="17" font-weight="700" fill="' + suit[2] + '">' + esc(label) + '</text>' +
      '<text x="6" y="37" font-size="15" fill="' + suit[2] + '">' + suit[0] + '</text>' +
      '<text x="33" y="70" font-size="32" text-anchor="middle" fill="' + suit[2] + '">' + suit[0] + '</text>' +
      '</svg>';
  }

  function cardBack(extraClass) {
    return '<svg class="card back ' + (extraClass || "") + '" viewBox="0 0 60 84" role="img" aria-label="a hidden card">' +
      '<title>a hidden card</title>' +
      '<rect x="1" y="1" width="58" height="82" rx="6" fill="#114b2b" stroke="#0b3320"/>' +
      '<rect x="7" y="7" width="46" height="70" rx="3" fill="none" stroke="#e7e2d6" stroke-dasharray="3 3"/>' +
      '</svg>';
  }

  function cardsHtml(codes, extraClass) {
    return (codes || []).map(function (c) { return cardSvg(c, extraClass); }).join("");
  }

  global.Cards = { cardSvg: cardSvg, cardBack: cardBack, cardsHtml: cardsHtml, esc: esc };
})(window);
