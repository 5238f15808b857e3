/* SVG playing cards, drawn here (no image from elsewhere): cardSvg("7H"), cardBack(). */
(function (global) {
  "use strict";
  var SUITS = { C: ["♣", "clubs", "#1d2a22"], D: ["♦", "diamonds", "#b3261e"],
                H: ["♥", "hearts", "#b3261e"], S: ["♠", "spades", "#1d2a22"] };
  var RANKS = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
  // A card's name: one sentence per suit with the rank inside, so that each language puts
  // them in its own order and case ("Herz-Dame", "Širdžių dama"); the page's catalogue
  // (Django's JavaScriptCatalog) is loaded before this script.
  var RANK_NAMES = {
    A: pgettext("a card's rank, in its name", "Ace"), T: "10", J: pgettext("a card's rank, in its name", "Jack"),
    Q: pgettext("a card's rank, in its name", "Queen"), K: pgettext("a card's rank, in its name", "King")
  };
  var SUIT_NAMES = {
    C: pgettext("a card's name", "%(rank)s of clubs"), D: pgettext("a card's name", "%(rank)s of diamonds"),
    H: pgettext("a card's name", "%(rank)s of hearts"), S: pgettext("a card's name", "%(rank)s of spades")
  };

  function cardName(code) {
    var rank = code.charAt(0);
    return interpolate(SUIT_NAMES[code.charAt(1)], { rank: RANK_NAMES[rank] || rank }, true);
  }

  function esc(text) {
    return String(text).replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  function cardSvg(code, extraClass) {
    var rank = code.charAt(0), suit = SUITS[code.charAt(1)];
    if (!suit) { return cardBack(); }
    var label = RANKS[rank] || rank;
    var name = cardName(code);
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
    return '<svg class="card back ' + (extraClass || "") + '" viewBox="0 0 60 84" role="img" aria-label="' + esc(gettext("a hidden card")) + '">' +
      '<title>' + esc(gettext("a hidden card")) + '</title>' +
      '<rect x="1" y="1" width="58" height="82" rx="6" fill="#114b2b" stroke="#0b3320"/>' +
      '<rect x="7" y="7" width="46" height="70" rx="3" fill="none" stroke="#e7e2d6" stroke-dasharray="3 3"/>' +
      '</svg>';
  }

  function cardsHtml(codes, extraClass) {
    return (codes || []).map(function (c) { return cardSvg(c, extraClass); }).join("");
  }

  global.Cards = { cardSvg: cardSvg, cardBack: cardBack, cardsHtml: cardsHtml, cardName: cardName, esc: esc };
})(window);
