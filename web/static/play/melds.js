// Melds of one hand, worked out in the browser from the player's own cards only (RULES 2,
// 6): every arrangement of the cards into sets and runs, the least deadwood first. The
// server's own solver (games/engine/melds.py) decides what counts; this one only shows
// the player their hand grouped and previews a knock. A hand has at most 11 cards, so a
// plain search over the melds it holds, memoised by the cards left, is instant.
export const RANKS = "A23456789TJQK";
export const SUITS = "CDHS";

export function rank(code) { return RANKS.indexOf(code.charAt(0)); }
export function suit(code) { return SUITS.indexOf(code.charAt(1)); }
export function value(code) { return Math.min(rank(code) + 1, 10); }

export function bySuit(a, b) { return suit(a) - suit(b) || rank(a) - rank(b); }
export function byRank(a, b) { return rank(a) - rank(b) || suit(a) - suit(b); }

// Every meld (as a bit mask over `cards`) that the cards hold: sets of 3 and 4 of a rank,
// runs of 3 or more of a suit.
function meldsOf(cards) {
  var out = [], i, j, k, l;
  var byR = {}, byS = {};
  cards.forEach(function (c, n) {
    (byR[rank(c)] = byR[rank(c)] || []).push(n);
    (byS[suit(c)] = byS[suit(c)] || []).push(n);
  });
  Object.keys(byR).forEach(function (r) {
    var g = byR[r];
    if (g.length === 4) out.push((1 << g[0]) | (1 << g[1]) | (1 << g[2]) | (1 << g[3]));
    for (i = 0; i < g.length; i++)
      for (j = i + 1; j < g.length; j++)
        for (k = j + 1; k < g.length; k++) out.push((1 << g[i]) | (1 << g[j]) | (1 << g[k]));
  });
  Object.keys(byS).forEach(function (s) {
    var g = byS[s].slice().sort(function (a, b) { return rank(cards[a]) - rank(cards[b]); });
    for (i = 0; i < g.length; i++) {
      var mask = 1 << g[i];
      for (l = i + 1; l < g.length && rank(cards[g[l]]) === rank(cards[g[l - 1]]) + 1; l++) {
        mask |= 1 << g[l];
        if (l - i >= 2) out.push(mask);
      }
    }
  });
  return out;
}

function bits(mask, cards) {
  var out = [];
  for (var n = 0; n < cards.length; n++) if (mask & (1 << n)) out.push(cards[n]);
  return out;
}

// Every arrangement of `cards` (melds chosen, the rest deadwood), as
// {melds: [[code...]...], deadwood: [code...], value}, least deadwood first; at most
// `limit` of them. Runs cut into shorter runs count as the same arrangement only when the
// cut changes nothing the search sees, so a few near-duplicates may appear.
export function arrangements(cards, limit) {
  cards = cards.slice();
  var melds = meldsOf(cards), seen = {}, found = [];
  function search(left, chosen) {
    var first = -1;
    for (var n = 0; n < cards.length; n++) if (left & (1 << n)) { first = n; break; }
    if (first < 0) {
      var key = chosen.slice().sort().join(",");
      if (!seen[key]) { seen[key] = true; found.push(chosen.slice()); }
      return;
    }
    // `first` is deadwood, or in one of the melds that hold it and only cards still left.
    search(left & ~(1 << first), chosen);
    melds.forEach(function (m) {
      if ((m & (1 << first)) && (m & left) === m) { chosen.push(m); search(left & ~m, chosen); chosen.pop(); }
    });
  }
  search((1 << cards.length) - 1, []);
  var all = found.map(function (chosen) {
    var used = chosen.reduce(function (a, m) { return a | m; }, 0);
    var dead = bits(((1 << cards.length) - 1) & ~used, cards).sort(bySuit);
    return {
      melds: chosen.map(function (m) { return bits(m, cards).sort(bySuit); })
        .sort(function (a, b) { return bySuit(a[0], b[0]); }),
      deadwood: dead,
      value: dead.reduce(function (a, c) { return a + value(c); }, 0),
    };
  });
  all.sort(function (a, b) { return a.value - b.value || b.melds.length - a.melds.length; });
  return limit ? all.slice(0, limit) : all;
}

export function best(cards) { return arrangements(cards, 1)[0]; }
