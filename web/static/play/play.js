// The play page (/play/<match id>/): the table as this player's seat sees it, from the
// player's view of the match (GET /api/matches/{id}/, the same as every client's), kept
// live by the match's stream (server-sent events: a `view` message after each batch of
// events; the browser resumes with Last-Event-ID after a lost connection). Moves go to
// POST /api/matches/{id}/actions/ with the session (CSRF header) and an Idempotency-Key,
// kept for the retries of one move, so a move sent twice is one move.
//
// The page's contract for tests and automated clients (README "The play page's hooks"):
// #play[data-match][data-version][data-phase], my cards button[data-card], the actions
// button[data-action], scoresheet totals [data-game][data-player].
import { arrangements, best, bySuit, byRank } from "./melds.js";
import { sortable } from "./drag.js";
import { button, cardFace, cardName, esc, nameIn, num, t } from "./words.js";
import { renderConfirm, renderHandOver, renderSheet } from "./records.js";
import { follow, keep, kept, postMove } from "./live.js";

var root = document.getElementById("play");
var view = JSON.parse(document.getElementById("play-view").textContent);
var me = Number(root.dataset.me);
var apiUrl = root.dataset.api;
var practice = root.dataset.practice === "true";
var turnSeconds = Number(root.dataset.turnSeconds || 0);

// The hand-over state (a hand's end on screen until I press next-hand) outlives a reload:
// how many hand records I have acknowledged is kept in this browser's localStorage, per
// match and player (the server has dealt the next hand already; only the page waits).
var seenKey = "hg-play:" + root.dataset.match + ":" + me + ":hands-seen";
function storedSeen() {
  var n = kept(seenKey);
  return typeof n === "number" && n >= 0 && n <= view.hands.length ? n : null;
}
function storeSeen(n) { keep(seenKey, n); }
var shownHands = storedSeen();        // hand records already shown (their end seen)
if (shownHands === null) { shownHands = view.hands.length; storeSeen(shownHands); }
var handOver = null;                 // the hand record whose end is on screen
if (shownHands < view.hands.length && view.status === "in_progress") {
  handOver = view.hands[view.hands.length - 1]; // ended before the reload, not yet seen
}
var selected = null;                 // the card chosen to discard or knock with
// The keyboard's place in my hand: the hand is one tab stop (the arrow keys move between its
// cards, a "roving tabindex"); this card is the one Tab comes back to.
var cursor = null;
var focusAfter = null;               // a card to take the focus at the next render: the one I drew
var sortMode = "melds";               // melds, suit, rank, or "own": my order (dragged)
var ownKey = "hg-play:" + root.dataset.match + ":" + me + ":order";
var ownOrder = [];                    // my order of the cards, codes (kept on reload)
var savedOrder = kept(ownKey);
if (Array.isArray(savedOrder)) { ownOrder = savedOrder.map(String); sortMode = "own"; }
var confirming = null;               // {kind: "knock", card} or {kind: "resign"}
var chosen = -1;                     // the knock's arrangement: -1 = let the server lay it
var busy = false, message = "", clockFrom = Date.now(), lastShownVersion = view.version;

var $ = function (sel) { return root.querySelector(sel); };

function nameOf(id) { return nameIn(view.players, id); }
function opponent() { return view.players.filter(function (p) { return p.id !== me; })[0]; }

// -- what the seat may do ------------------------------------------------------------------

function legal(type, field, value) {
  return view.legal_actions.some(function (a) {
    return a.type === type && (field === undefined || a[field] === value);
  });
}

function phase() {
  if (handOver && view.status === "in_progress") return "hand-over";
  if (view.status !== "in_progress") return "match-over";
  if (view.turn !== me || !view.legal_actions.length) return "waiting";
  if (view.phase === "upcard") return "first-turn";
  if (view.phase === "draw") return "draw";
  if (view.phase === "discard") return "discard";
  return "waiting";
}

function knockCards() {
  return view.legal_actions.filter(function (a) { return a.type === "knock"; })
    .map(function (a) { return a.card; });
}

// -- rendering -----------------------------------------------------------------------------

// The cards in my own order: those I placed, then any new card (a draw) at the end.
function inOwnOrder(cards) {
  var kept = ownOrder.filter(function (c) { return cards.indexOf(c) >= 0; });
  return kept.concat(cards.filter(function (c) { return kept.indexOf(c) < 0; }));
}

function shownOrder() {
  return Array.prototype.map.call(root.querySelectorAll("[data-hand] [data-card]"), function (el) {
    return el.dataset.card;
  });
}

// Move `code` before or after `target` (or by `step` places): my order from then on.
function reorder(code, target, after, step) {
  var order = sortMode === "own" ? inOwnOrder(view.your_cards || []) : shownOrder();
  var from = order.indexOf(code);
  if (from < 0) return;
  order.splice(from, 1);
  var to;
  if (target) {
    to = order.indexOf(target);
    if (to < 0) return;
    if (after) to += 1;
  } else {
    to = Math.max(0, Math.min(order.length, from + step));
  }
  order.splice(to, 0, code);
  ownOrder = order; sortMode = "own";
  keep(ownKey, ownOrder);
  $("[data-order-note]").textContent = t("moved_card", { card: cardName(code), n: to + 1, of: order.length });
  render();
}

function renderHand() {
  var cards = (view.your_cards || []).slice();
  var groups;
  if (sortMode === "own") {
    groups = [{ cards: inOwnOrder(cards), meld: false }];
  } else if (sortMode === "melds") {
    var arr = cards.length ? best(cards) : { melds: [], deadwood: [] };
    groups = arr.melds.map(function (m) { return { cards: m, meld: true }; });
    if (arr.deadwood.length) groups.push({ cards: arr.deadwood, meld: false });
  } else {
    groups = [{ cards: cards.sort(sortMode === "suit" ? bySuit : byRank), meld: false }];
  }
  var canPick = phase() === "discard";
  var all = [].concat.apply([], groups.map(function (g) { return g.cards; }));
  var stop = all.indexOf(cursor) >= 0 ? cursor : all.indexOf(selected) >= 0 ? selected : all[0];
  return groups.map(function (g) {
    return '<div class="group' + (g.meld ? " meld" : "") + '">' + g.cards.map(function (c) {
      // Never disabled: a card I may not pick now can still be moved (dragged, Alt+arrows).
      return '<button type="button" class="card" data-card="' + esc(c) + '" aria-label="' +
        esc(cardName(c)) + '" aria-pressed="' + (c === selected) + '" tabindex="' +
        (c === stop ? "0" : "-1") + '"' + (canPick ? "" : ' aria-disabled="true"') + ">" +
        cardFace(c, "", false) + "</button>";
    }).join("") + "</div>";
  }).join("");
}

function renderActions() {
  var p = phase(), out = [];
  if (p === "first-turn") {
    out.push(button("take-upcard", t("take_upcard"), legal("draw", "source", "discard")));
    out.push(button("pass", t("pass"), legal("pass"), ' class="secondary"'));
  } else if (p === "draw") {
    out.push(button("draw-stock", t("draw_stock"), legal("draw", "source", "stock")));
    out.push(button("draw-discard", t("draw_discard"), legal("draw", "source", "discard")));
  } else if (p === "discard") {
    var gin = selected && knockCards().indexOf(selected) >= 0 &&
      best(view.your_cards.filter(function (c) { return c !== selected; })).value === 0;
    out.push(button("discard", t("discard"), selected && legal("discard", "card", selected)));
    out.push(button("knock", gin ? t("gin") : t("knock"), selected && knockCards().indexOf(selected) >= 0));
  } else if (p === "hand-over") {
    out.push(button("next-hand", t("next_hand"), true));
  }
  if (view.status === "in_progress" && p !== "hand-over") {
    out.push(button("resign", t("resign"), !busy, ' class="danger"'));
  }
  return out.join("");
}

function status() {
  var p = phase();
  if (p === "match-over") {
    if (view.winner) return view.winner === me ? t("you_won") : t("won_by", { name: nameOf(view.winner) });
    return t("match_over");
  }
  if (p === "hand-over") return t("hand_over");
  if (p === "waiting") return view.turn ? t("their_move", { name: nameOf(view.turn) }) : t("dealing");
  if (p === "first-turn") return t("first_turn");
  if (p === "draw") return t("your_draw");
  return selected ? t("discard_or_knock") : t("choose_discard");
}

// Re-rendering replaces the buttons: the keyboard's focus goes back to the same card or
// action (or, where that one is gone, to the first action offered).
function focusKey() {
  var el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  if (el.dataset.card) return '[data-card="' + el.dataset.card + '"]';
  if (el.dataset.action) return '[data-action="' + el.dataset.action + '"]';
  return null;
}

// A move of mine replaces the button I pressed: the focus goes to the card I drew (to weigh
// it), else to the next thing to do, else back into my hand; never to "Resign" by chance.
function render() {
  var key = focusKey();
  if (key && focusAfter) key = '[data-card="' + focusAfter + '"]';
  focusAfter = null;
  renderAll();
  if (key) {
    var again = root.querySelector(key);
    if (!again || again.disabled) {
      again = root.querySelector("[data-actions] button:not([disabled]):not([data-action=resign])") ||
        root.querySelector('[data-hand] [data-card][tabindex="0"]');
    }
    if (again && !again.disabled) again.focus();
  }
}

function renderAll() {
  var p = phase();
  root.dataset.version = String(view.version);
  root.dataset.phase = p;
  var opp = opponent();
  var top = view.discard_pile.length ? view.discard_pile[view.discard_pile.length - 1] : null;
  $("[data-opponent]").innerHTML = "<bdi>" + esc(opp.name) + "</bdi> · " +
    esc(t("cards_n", { n: view.opponent_card_count == null ? 0 : view.opponent_card_count }));
  $("[data-stock]").textContent = t("stock_n", { n: view.stock_count });
  $("[data-discard-top]").innerHTML = top ? cardFace(top, " big") : '<span class="face empty">—</span>';
  $("[data-discard-label]").textContent = view.phase === "upcard" ? t("upcard") : t("discard_pile");
  $("[data-status]").textContent = status();
  $("[data-message]").textContent = message;
  if (!(drag && drag.dragging())) {
    $("[data-hand]").innerHTML = p === "match-over" && !(view.your_cards || []).length ? "" : renderHand();
  }
  $("[data-actions]").innerHTML = renderActions();
  $("[data-confirm]").innerHTML = renderConfirm(confirming, view, chosen, busy);
  var ended = handOver || (p === "match-over" ? view.hands[view.hands.length - 1] : null);
  $("[data-hand-over]").innerHTML = renderHandOver(ended, view, me);
  $("[data-sheet]").innerHTML = renderSheet(view);
  // Over a hand's result, the number of the hand it is the result of (not the next one's).
  var shown = ended ? ended.hand_number : view.hand_number;
  $("[data-hand-number]").textContent = shown ? t("hand_n", { n: shown }) : "";
  Array.prototype.forEach.call(root.querySelectorAll("[data-sort]"), function (b) {
    b.setAttribute("aria-pressed", String(b.dataset.sort === sortMode));
  });
  tick();
}

function tick() {
  var clock = $("[data-clock]");
  if (!turnSeconds || view.status !== "in_progress" || !view.turn) { clock.hidden = true; return; }
  var left = Math.max(0, turnSeconds - Math.floor((Date.now() - clockFrom) / 1000));
  clock.hidden = false;
  var time = num(Math.floor(left / 60)) + ":" + num(Math.floor(left % 60 / 10)) + num(left % 10);
  clock.textContent = t("clock", { name: nameOf(view.turn), time: time });
  clock.dataset.secondsLeft = String(left);
}

// -- the view, from the API and the stream ------------------------------------------------

function apply(next) {
  if (!next || next.version < view.version) return;
  if (next.version !== lastShownVersion) { clockFrom = Date.now(); lastShownVersion = next.version; }
  var ended = next.hands.length > shownHands;
  var had = view.your_cards || [];
  var drawn = (next.your_cards || []).filter(function (c) { return had.indexOf(c) < 0; });
  if (next.hands.length === view.hands.length && drawn.length === 1 && next.turn === me) {
    focusAfter = drawn[0]; cursor = drawn[0];
  }
  view = next;
  if (ended) {
    handOver = next.hands[next.hands.length - 1];
    if (next.status !== "in_progress") { acknowledge(next.hands.length); handOver = null; }
    selected = null; confirming = null;
  }
  if (selected && (view.your_cards || []).indexOf(selected) < 0) selected = null;
  if (confirming && confirming.kind === "knock" && phase() !== "discard") confirming = null;
  render();
}

function acknowledge(n) { shownHands = n; storeSeen(n); }

// A practice match: the bot's move (made by a job at once under eager jobs) is shown after
// a short pause, so the player sees that something happened.
var queued = null;
function applyFromStream(next) {
  if (practice && next.turn === me && view.turn !== me) {
    if (queued) window.clearTimeout(queued.timer);
    queued = { view: next, timer: window.setTimeout(function () { var q = queued; queued = null; apply(q.view); }, 500) };
    return;
  }
  if (queued && queued.view.version > next.version) return;
  apply(next);
}

function refetch() {
  return fetch(apiUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (r) { return r.ok ? r.json() : null; })
    .then(function (v) { if (v) apply(v); });
}

function send(action) {
  if (busy) return;
  busy = true; message = ""; render();
  var body = Object.assign({ expected_version: view.version }, action);
  return postMove(apiUrl + "actions/", root.dataset.csrf, body).then(function (res) {
    busy = false;
    if (res.ok) { apply(res.data); return; }
    var err = res.data && res.data.error;
    message = err ? err.message : t("move_failed");
    render();
    return refetch();
  }, function () {
    busy = false; message = t("move_failed"); render();
  });
}

// -- the player's hands on the page -------------------------------------------------------

root.addEventListener("click", function (e) {
  var el = e.target.closest("button, input[name=arrangement]");
  if (!el || el.disabled) return;
  if (el.name === "arrangement") { chosen = Number(el.value); return; }
  if (el.dataset.card) {
    if (el.getAttribute("aria-disabled") === "true") return;
    selected = selected === el.dataset.card ? null : el.dataset.card;
    confirming = null; chosen = -1; render();
    return;
  }
  if (el.dataset.sort) { sortMode = el.dataset.sort; render(); return; }
  switch (el.dataset.action) {
    case "take-upcard": case "draw-discard": send({ type: "draw", source: "discard" }); break;
    case "draw-stock": send({ type: "draw", source: "stock" }); break;
    case "pass": send({ type: "pass" }); break;
    case "discard": if (selected) send({ type: "discard", card: selected }); break;
    case "knock": if (selected) { confirming = { kind: "knock", card: selected }; chosen = -1; render(); focusConfirm(); } break;
    case "resign": confirming = { kind: "resign" }; render(); focusConfirm(); break;
    case "cancel": closeConfirm(); break;
    case "confirm": confirm(); break;
    case "next-hand": acknowledge(view.hands.length); handOver = null; render(); break;
  }
});

// The dialog is modal: Tab and Shift+Tab go round inside it, and closing it (Cancel,
// Escape) gives the focus back to the button that opened it.
function closeConfirm() {
  var from = confirming && confirming.kind;
  confirming = null;
  render();
  var opener = from && root.querySelector('[data-actions] [data-action="' + from + '"]');
  if (opener && !opener.disabled) opener.focus();
}

document.addEventListener("keydown", function (e) {
  if (!confirming || e.key !== "Tab") return;
  var box = root.querySelector("[data-confirm]");
  var stops = Array.prototype.filter.call(box.querySelectorAll("button, input"), function (el) {
    return !el.disabled && (el.type !== "radio" || el.checked);
  });
  if (!stops.length) return;
  var first = stops[0], last = stops[stops.length - 1], at = document.activeElement;
  if (!box.contains(at) || (e.shiftKey && at === first) || (!e.shiftKey && at === last)) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
  }
});

function focusConfirm() {
  var b = root.querySelector('[data-confirm] [data-action="confirm"]');
  if (b) b.focus();
}

function confirm() {
  var c = confirming;
  if (!c) return;
  confirming = null;
  if (c.kind === "resign") { send({ type: "resign" }); return; }
  var action = { type: "knock", card: c.card };
  if (chosen >= 0) {
    // Laid by hand: the arrangement the player chose is sent as it is.
    var left = view.your_cards.filter(function (x) { return x !== c.card; });
    var options = arrangements(left, 24).filter(function (a) { return a.value <= view.ruleset.knock_limit; });
    if (options[chosen]) action.melds = options[chosen].melds;
  }
  send(action);
}

root.addEventListener("focusin", function (e) {
  var card = e.target.closest && e.target.closest("[data-hand] [data-card]");
  if (!card) return;
  cursor = card.dataset.card;
  Array.prototype.forEach.call(root.querySelectorAll("[data-hand] [data-card]"), function (b) {
    b.tabIndex = b === card ? 0 : -1;
  });
});

root.addEventListener("keydown", function (e) {
  if (e.key === "Escape" && confirming) { closeConfirm(); return; }
  // Between my cards: the arrow keys (as they look, in a right-to-left page too), Home, End.
  var on = e.target.closest && e.target.closest("[data-hand] [data-card]");
  var moves = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: -99, End: 99 };
  if (on && !e.altKey && !e.ctrlKey && !e.metaKey && moves[e.key] !== undefined) {
    e.preventDefault();
    var cards = Array.prototype.slice.call(root.querySelectorAll("[data-hand] [data-card]"));
    var by = moves[e.key];
    if (getComputedStyle(root).direction === "rtl" && (e.key === "ArrowLeft" || e.key === "ArrowRight")) by = -by;
    var to = cards[Math.max(0, Math.min(cards.length - 1, cards.indexOf(on) + by))];
    if (to) to.focus();
    return;
  }
  // The keyboard's way to arrange my cards: Alt + an arrow key moves the focused card one
  // place (left and right as they look, in a right-to-left page too; Home / End to the ends).
  var card = e.target.closest && e.target.closest("[data-hand] [data-card]");
  if (card && e.altKey && ["ArrowLeft", "ArrowRight", "Home", "End"].indexOf(e.key) >= 0) {
    e.preventDefault();
    var rtl = getComputedStyle(root).direction === "rtl";
    var step = { ArrowLeft: -1, ArrowRight: 1, Home: -99, End: 99 }[e.key];
    if (rtl && (e.key === "ArrowLeft" || e.key === "ArrowRight")) step = -step;
    reorder(card.dataset.card, null, false, step);
  }
});

var drag = sortable($("[data-hand]"), {
  items: "[data-card]",
  onDrop: function (code, target, after) { reorder(code, target, after, 0); },
  onEnd: function () { render(); }, // what changed meanwhile (the hand waited for the drop)
});

// -- live ----------------------------------------------------------------------------------

var indicator = $("[data-live-indicator]");
function show(state) {
  indicator.dataset.state = state;
  indicator.textContent = t("live_" + state);
}

// The opponent's last move in words ("Ben discarded 7♥"), from the stream's events as the
// events API shows them to this seat (a card drawn from the stock is not in them).
function lastMove(ev) {
  var d = ev.data || {}, who = d.player;
  if (who === undefined || who === me) return;
  var key = { UpcardPassed: "moved_pass", CardDrawn: d.source === "stock" ? "moved_stock" : "moved_discard",
              CardDiscarded: "moved_discarded", Knocked: d.gin ? "moved_gin" : "moved_knock" }[ev.type];
  if (!key) return;
  var el = $("[data-last-move]");
  var card = ev.type === "Knocked" ? d.discard : d.card; // null: a card from the stock
  el.innerHTML = esc(t(key, { name: nameOf(who) })) + (card ? " " + cardFace(card) : "");
  el.dataset.lastMove = ev.type;
}

window.setInterval(tick, 1000);
render();
follow({
  url: function () { return root.dataset.stream + "?after=" + view.version; },
  show: show,
  onView: applyFromStream,
  onEvent: lastMove,
  refetch: refetch,
  // Waiting on the other side: 30 s of quiet before asking again (5 s in practice, where
  // the bot moves at once).
  waiting: function () { return !busy && view.status === "in_progress" && view.turn !== me; },
  quiet: practice ? 5000 : 30000,
});
