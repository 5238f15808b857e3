/* The replay page: steps through the events (buttons, slider, hand jump, arrow keys), draws
   the table after each, and runs the fairness checks of verify.js. No build step. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var C = window.Cards;
  // Words kept outside the log (eventstore.personal) are {"$text": id} in an event shown as
  // stored: their text is in data.texts ("" once erased).
  function said(value) {
    if (value && typeof value === "object" && "$text" in value) {
      var kept = (data.texts || {})[String(value.$text)];
      return kept && kept.text ? kept.text : "";
    }
    return value;
  }
  function esc(value) { return C.esc(said(value)); }
  // The words come from the page language's catalogue (Django's JavaScriptCatalog, the
  // djangojs domain); `t` fills in %(name)s. Without the catalogue: English.
  var gettext = window.gettext || function (text) { return text; };
  var pgettext = window.pgettext || function (context, text) { return text; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  function t(text, args) {
    return String(text).replace(/%\((\w+)\)s/g, function (m, key) { return args[key]; });
  }
  var lang = document.documentElement.lang || "en";
  // Persian pages: Persian digits in the text (never in card codes, hashes or names: <code>,
  // <bdi>, and the SVG cards keep theirs).
  var PERSIAN = "۰۱۲۳۴۵۶۷۸۹";
  function localDigits(root) {
    if (lang !== "fa" || !root) { return root; }
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        return node.parentNode.closest("code, bdi, svg, .card, .cards") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
      }
    });
    var node;
    while ((node = walker.nextNode())) {
      node.nodeValue = node.nodeValue.replace(/[0-9]/g, function (d) { return PERSIAN[d]; });
    }
    return root;
  }
  function name(text) { return "<bdi>" + text + "</bdi>"; }
  // A pair of scores, one unit in the page's direction: the first player's first where the
  // page starts reading, as on the other pages (web/templatetags/scores.py).
  function pair(list) {
    var dir = document.documentElement.dir === "rtl" ? "rtl" : "ltr";
    return '<span class="score" dir="' + dir + '">' + list.join(" – ") + "</span>";
  }
  var events = data.events;
  var byId = {};
  data.players.forEach(function (p) { byId[p.id] = p; });
  var commitChecks = {};   // hand number -> "ok" | "failed" | "pending"
  var index = events.length ? events.length - 1 : 0;
  var asked = parseInt(new URLSearchParams(window.location.search).get("version"), 10);
  if (asked >= 1 && asked <= events.length) { index = asked - 1; }  // ?version=N (from the admin)

  function $(id) { return document.getElementById(id); }
  // Event data is shown as stored (seats 0/1: the page recomputes the events' hashes); the
  // tables after each event (`e.table`) and the hand records name players by id.
  function seatName(seat) {
    return seat === null || seat === undefined ? "—" : name(esc(data.players[seat].name));
  }
  function idName(pid) { return byId[pid] ? name(esc(byId[pid].name)) : "—"; }
  function cards(list) { return '<span class="cards">' + C.cardsHtml(list) + "</span>"; }
  function melds(list) {
    return (list || []).map(function (m) { return '<span class="meld">' + C.cardsHtml(m) + "</span>"; }).join(" ");
  }
  // Times in the match's tournament's zone (UTC for a friendly), as on the other pages; the
  // events carry UTC instants ("...Z", 6 fraction digits), which also feed the hash chain.
  var zone = $("replay").getAttribute("data-time-zone") || "UTC";
  var clock = (function () {
    try {
      // ISO-like order in every language; the Solar Hijri calendar on Persian pages (unless
      // the club turned it off: data-calendar).
      var calendar = $("replay").getAttribute("data-calendar") || "gregory";
      return new Intl.DateTimeFormat("en-GB-u-ca-" + calendar, { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit",
        hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZoneName: "short" });
    } catch (err) { return null; }  // a browser without this zone: UTC, and the page says so
  })();
  if (!clock && zone !== "UTC") { $("time-zone").textContent = t(gettext("times in UTC (this browser does not know %(zone)s)"), { zone: zone }); }
  function when(text) {
    var at = new Date(String(text).replace(/(\.\d{3})\d*Z$/, "$1Z"));
    if (!clock || isNaN(at.getTime())) { return esc(String(text).replace("T", " ").replace(/\.\d+Z$/, " UTC")); }
    var p = {};
    clock.formatToParts(at).forEach(function (part) { p[part.type] = part.value; });
    var year = String(p.year || p.relatedYear || "").replace(/\D+$/, "");  // "1405 AP" -> "1405"
    // One left-to-right unit (a date's parts keep their order on a right-to-left page).
    return '<span dir="ltr" class="when">' + esc(year + "-" + p.month + "-" + p.day + " " + p.hour + ":" + p.minute + ":" + p.second + " " + p.timeZoneName) + "</span>";
  }

  // --- one event in words (and cards) ----------------------------------------------------
  function describe(i) {
    var e = events[i], d = e.data, before = i > 0 ? events[i - 1].table : null;
    switch (e.type) {
      case "MatchStarted":
        return [gettext("Match started"), t(gettext("Mode %(mode)s; first dealer %(name)s."), { mode: esc(d.mode), name: seatName(d.first_dealer) })];
      case "HandDealt":
        return [t(gettext("Hand %(n)s dealt by %(name)s"), { n: d.hand_number, name: seatName(d.dealer) }),
          t(gettext("Deck commitment %(hash)s"), { hash: "<code class=\"hash\">" + esc(d.commitment) + "</code>" }) + " " +
          (d.deck ? gettext("(deck and salt revealed: the hand is over)") : gettext("(deck hidden while the hand is in play)"))];
      case "UpcardPassed":
        return [t(gettext("%(name)s passed the upcard"), { name: seatName(d.seat) }), ""];
      case "CardDrawn":
        var took = before && before.phase === "upcard" && d.source === "discard";
        return [t(took ? gettext("%(name)s took the upcard") : d.source === "stock" ? gettext("%(name)s drew from the stock") : gettext("%(name)s drew from the discard pile"), { name: seatName(d.seat) }),
          d.card ? cards([d.card]) : '<span class="cards">' + C.cardBack() + "</span> " + gettext("(hidden from you)")];
      case "CardDiscarded":
        return [t(gettext("%(name)s discarded"), { name: seatName(d.seat) }), cards([d.card])];
      case "Knocked":
        return [t(d.gin ? gettext("%(name)s went gin") : gettext("%(name)s knocked"), { name: seatName(d.seat) }),
          gettext("Discard") + " " + cards([d.discard]) + "<br>" + gettext("Melds") + " " + melds(d.melds) +
          "<br>" + gettext("Deadwood") + " " + cards(d.deadwood) + " = <strong>" + d.deadwood_value + "</strong>"];
      case "DefenceLaidOut":
        var lay = (d.layoffs || []).map(function (l) { return C.cardSvg(l[0]) + '<span class="muted">' + t(gettext("on meld %(n)s"), { n: l[1] + 1 }) + "</span>"; }).join(" ");
        return [t(gettext("%(name)s laid out (defence)"), { name: seatName(d.seat) }),
          gettext("Melds") + " " + melds(d.melds) + "<br>" + gettext("Layoffs") + " " + (lay || gettext("none")) +
          "<br>" + gettext("Deadwood") + " " + cards(d.deadwood) + " = <strong>" + d.deadwood_value + "</strong>"];
      case "HandScored":
        return [t(gettext("Hand %(n)s: %(kind)s, %(name)s scores %(points)s"), { n: d.hand_number, kind: kindName(d.kind), name: seatName(d.winner), points: d.points }),
          t(gettext("Deadwood: knocker (%(name)s) %(k)s, defender %(d)s; points go to game(s) %(games)s."),
            { name: seatName(d.knocker), k: d.knocker_deadwood, d: d.defender_deadwood, games: d.games.join(", ") || gettext("none") })];
      case "HandDrawn":
        return [t(gettext("Hand %(n)s drawn"), { n: d.hand_number }), gettext("Two cards left in the stock: no score, the same dealer deals again.")];
      case "HandRecorded":
        return [t(gettext("Hand %(n)s recorded (table)"), { n: d.hand_number }),
          t(d.gin ? gettext("Knocker %(name)s, gin; deadwood %(k)s / %(d)s.") : gettext("Knocker %(name)s; deadwood %(k)s / %(d)s."),
            { name: seatName(d.knocker), k: d.knocker_deadwood, d: d.defender_deadwood })];
      case "GameWon":
        return [t(gettext("Game %(n)s won by %(name)s"), { n: d.game, name: seatName(d.winner) }),
          (d.bonuses.some(Boolean) ? t(gettext("Scores %(scores)s; bonuses %(bonuses)s."), { scores: pair(d.scores), bonuses: pair(d.bonuses) })
            : t(gettext("Scores %(scores)s."), { scores: pair(d.scores) }))];
      case "MatchFinished":
        return [t(gettext("Match finished: %(name)s wins"), { name: seatName(d.winner) }), t(gettext("Reason: %(reason)s."), { reason: name(esc(d.reason)) })];
      case "HandVoided":
        return [t(gettext("Hand %(n)s voided"), { n: d.hand_number }), byLine(d)];
      case "HandCorrected":
        return [t(gettext("Hand %(n)s corrected"), { n: d.hand_number }), byLine(d) +
          '<br><s>' + entry(d.before) + "</s><br>" + entry(d.after)];
      case "MatchReopened":
        return [gettext("Match reopened"), t(gettext("After the %(reason)s of hand %(n)s."), { reason: esc(d.reason), n: d.hand_number })];
      case "ScoreAdjusted":
        return [t(gettext("Score adjusted: %(name)s %(points)s in game %(n)s"), { name: seatName(d.seat), points: (d.points > 0 ? "+" : "") + d.points, n: d.game }),
          byLine(d)];
      case "MatchForfeited":
        return [t(gettext("Match forfeited: %(name)s wins"), { name: seatName(d.winner) }), byLine(d)];
      case "PlayerResigned":
        return [t(gettext("%(name)s resigned"), { name: seatName(d.seat) }), ""];
      case "MatchCancelled":
        return [gettext("Match cancelled"), byLine(d)];
      case "DisputeOpened":
        return [t(gettext("Dispute #%(n)s opened by %(name)s"), { n: d.dispute, name: seatName(d.seat) }),
          t(gettext("About %(what)s: \"%(statement)s\""), { what: aboutText(d.hand_number), statement: name(esc(d.statement)) })];
      case "DisputeCommented":
        return [t(gettext("Comment on dispute #%(n)s"), { n: d.dispute }), name(esc(d.by)) + ': "' + name(esc(d.comment)) + '"'];
      case "DisputeResolved":
        return [t(gettext("Dispute #%(n)s %(outcome)s"), { n: d.dispute, outcome: outcomeName(d.outcome) }), byLine(d)];
      default:
        return [esc(e.type), "<code>" + esc(JSON.stringify(d)) + "</code>"];
    }
  }

  // The two actors the data names in English words (games.audit), in the page's language.
  function actorName(text) {
    return text === "the server" ? gettext("the server") : text === "an organiser" ? gettext("an organiser") : text;
  }
  function byLine(d) { return t(gettext("By %(name)s: %(reason)s"), { name: name(esc(d.by)), reason: name(esc(d.reason)) }); }
  function aboutText(hand) { return hand ? t(gettext("hand %(n)s"), { n: hand }) : gettext("the whole match"); }
  // The words of codes kept in the events (the codes themselves stay English).
  function kindName(kind) {
    return esc({ gin: gettext("gin"), knock: gettext("knock"), undercut: gettext("undercut"), draw: gettext("drawn"),
      drawn: gettext("drawn"), void: gettext("voided in play"), unfinished: gettext("unfinished: the match ended") }[kind] || kind);
  }
  function outcomeName(outcome) {
    return esc({ dismissed: gettext("dismissed"), ruled: gettext("ruled"), open: gettext("open") }[outcome] || outcome);
  }

  // A table hand's entry; players by seat (in events) or, with `ids`, by player id (in the
  // hand records of the match's view).
  function entry(x, ids) {
    if (!x) { return ""; }
    if (x.kind === "drawn" || x.drawn) { return gettext("drawn hand"); }
    var who = ids ? idName : seatName;
    return t(gettext("%(kind)s: knocker %(name)s, deadwood %(k)s / %(d)s, %(winner)s scores %(points)s"), {
      kind: kindName(x.kind), name: who(x.knocker), k: x.knocker_deadwood, d: x.defender_deadwood,
      winner: who(x.winner), points: x.points });
  }

  // --- the table ---------------------------------------------------------------------------
  function seatHtml(tb, seat) {
    var p = data.players[seat], key = String(p.id), hand = tb.hands[key], count = tb.card_counts[key];
    var tags = [];
    if (tb.dealer === p.id) { tags.push('<span class="badge">' + gettext("dealer") + "</span>"); }
    if (tb.turn === p.id && ["upcard", "draw", "discard"].indexOf(tb.phase) >= 0) { tags.push('<span class="badge turn">' + gettext("to play") + "</span>"); }
    if (data.your_seat === seat) { tags.push('<span class="badge">' + gettext("you") + "</span>"); }
    var shown;
    if (hand) { shown = C.cardsHtml(hand); }
    else { shown = new Array(count + 1).join(C.cardBack()); }
    return '<h3>' + name(esc(p.name)) + " " + tags.join(" ") + ' <span class="muted">' + t(ngettext("%(n)s card", "%(n)s cards", count), { n: count }) + "</span></h3>" +
      '<div class="cards hand" data-seat="' + seat + '">' + (shown || '<span class="muted">' + gettext("no cards") + "</span>") + "</div>";
  }

  function drawTable(tb) {
    $("seat-0").innerHTML = seatHtml(tb, 0);
    $("seat-1").innerHTML = seatHtml(tb, 1);
    $("stock").innerHTML = tb.stock_count ? C.cardBack() + '<span class="count">' + tb.stock_count + "</span>" : '<span class="muted">' + gettext("empty") + "</span>";
    var pile = tb.discard_pile || [];
    var top = pile.slice(-6);
    $("discard").innerHTML = pile.length ?
      (pile.length > top.length ? '<span class="muted">' + t(gettext("%(n)s more"), { n: pile.length - top.length }) + " · </span>" : "") +
      C.cardsHtml(top.slice(0, -1), "under") + C.cardSvg(top[top.length - 1], tb.upcard ? "upcard" : "top") +
      (tb.upcard ? ' <span class="badge">' + gettext("upcard") + "</span>" : "") : '<span class="muted">' + gettext("empty") + "</span>";
    var note = "", ids = data.players.map(function (p) { return String(p.id); });
    if (data.mode === "table") { note = gettext("A table match: hands are played at the table, only their results are recorded."); }
    else if (!tb.card_counts[ids[0]] && !tb.card_counts[ids[1]]) { note = gettext("No hand in play at this point (the table is cleared once a hand is scored: step back to see how it ended)."); }
    else if (tb.hands[ids[0]] && tb.hands[ids[1]]) { note = gettext("This hand is over: both hands are shown."); }
    else if (data.your_seat !== null) { note = gettext("The hand is in play at this point: you see only your own cards."); }
    else { note = gettext("Players' cards are shown to the match's players and organisers once a hand is over."); }
    $("table-note").textContent = note;
    localDigits($("stock")); localDigits($("discard")); localDigits($("seat-0")); localDigits($("seat-1"));
  }

  // A table match: no cards to show, only what the paper scoresheet holds: one line a hand
  // recorded up to this event (as it stood then: corrections and voids so far applied),
  // who entered and who confirmed it, the line of this event's hand marked.
  function sheetLinesAt(upTo) {
    var lines = {}, order = [];
    function line(n) {
      if (!lines[n]) { lines[n] = { n: n }; order.push(n); }
      return lines[n];
    }
    for (var i = 0; i <= upTo; i++) {
      var e = events[i], d = e.data, l;
      if (e.type === "HandRecorded") {
        l = line(d.hand_number);
        l.entry = { kind: d.gin ? "gin" : "knock", knocker: d.knocker, knocker_deadwood: d.knocker_deadwood, defender_deadwood: d.defender_deadwood };
        l.entered = e;
      } else if (e.type === "HandScored" && lines[d.hand_number]) {
        l = lines[d.hand_number];
        l.entry = { kind: d.kind, knocker: d.knocker, knocker_deadwood: d.knocker_deadwood, defender_deadwood: d.defender_deadwood, winner: d.winner, points: d.points };
        l.games = d.games;
      } else if (e.type === "HandDrawn") {
        l = line(d.hand_number);
        l.entry = { drawn: true, kind: "drawn" };
        l.entered = e;
      } else if (e.type === "HandCorrected" && lines[d.hand_number]) {
        lines[d.hand_number].entry = d.after;
        lines[d.hand_number].corrected = true;
        lines[d.hand_number].games = null;
      } else if (e.type === "HandVoided" && lines[d.hand_number]) {
        lines[d.hand_number].voided = true;
      }
    }
    return order.map(function (n) { return lines[n]; });
  }
  function drawSheetLines(upTo) {
    var current = events[upTo].data.hand_number;
    var rows = sheetLinesAt(upTo).map(function (l) {
      var x = l.entry || {}, drawn = x.drawn || x.kind === "drawn", by = l.entered;
      var who = by ? (by.entered_by
        ? t(gettext("entered by %(by)s, confirmed by %(confirmed)s"), { by: name(esc(by.entered_by)), confirmed: name(esc(actorName(by.confirmed_by || by.actor_name))) })
        : t(gettext("entered by %(by)s"), { by: name(esc(actorName(by.actor_name))) })) : "";
      var cells = [
        '<td class="num">' + l.n + "</td>",
        "<td>" + kindName(x.kind) + (l.corrected ? ' <span class="badge">' + gettext("corrected") + "</span>" : "") + "</td>",
        "<td>" + (drawn ? "—" : seatName(x.knocker)) + "</td>",
        '<td class="num" data-label="' + esc(gettext("Deadwood")) + '">' + (drawn ? "" : x.knocker_deadwood + " / " + x.defender_deadwood) + "</td>",
        "<td>" + (drawn || x.winner === undefined ? "—" : seatName(x.winner) + " +" + x.points) + "</td>",
        '<td data-label="' + esc(gettext("To games")) + '">' + (l.games && l.games.length ? l.games.join(", ") : "—") + "</td>",
        '<td class="muted">' + who + "</td>",
      ];
      var cls = (l.voided ? "voided" : "") + (l.n === current ? " current" : "");
      return '<tr class="' + cls.trim() + '">' + cells.join("") + "</tr>";
    }).join("");
    $("sheet-lines").innerHTML = rows ? '<div class="scroll"><table class="sheet-lines"><tr><th class="num">' + gettext("Hand") + "</th><th>" + gettext("Result") + "</th><th>" +
      gettext("Knocker") + '</th><th class="num">' + gettext("Deadwood") + "</th><th>" + gettext("Winner") + "</th><th>" + gettext("To games") + "</th><th>" +
      gettext("Who entered it") + "</th></tr>" + rows + "</table></div>" : '<p class="muted">' + gettext("No hand recorded yet at this point.") + "</p>";
    localDigits($("sheet-lines"));
  }

  function drawScoresheet(tb) {
    var s = tb.scoresheet, names = data.players.map(function (p) { return name(esc(p.name)); });
    var ids = data.players.map(function (p) { return String(p.id); });
    var rows = s.games.map(function (g) {
      return "<tr><td>" + t(gettext("Game %(n)s"), { n: g.game }) + '</td><td class="num">' + g.scores[ids[0]] + '</td><td class="num">' + g.scores[ids[1]] +
        "</td><td>" + (g.winner === null ? pgettext("game", "open") : idName(g.winner)) + "</td></tr>";
    }).join("");
    $("scoresheet").innerHTML = "<table><tr><th>" + gettext("Game") + "</th><th class=\"num\">" + names[0] + "</th><th class=\"num\">" + names[1] +
      "</th><th>" + gettext("Winner") + "</th></tr>" + rows + "<tr><td>" + gettext("Games won") + '</td><td class="num">' + s.games_won[ids[0]] + '</td><td class="num">' +
      s.games_won[ids[1]] + "</td><td></td></tr></table>";
    localDigits($("scoresheet"));
  }

  function show(i) {
    if (!events.length) { $("event-title").textContent = gettext("No events yet."); return; }
    index = Math.max(0, Math.min(events.length - 1, i));
    var e = events[index], text = describe(index);
    $("event-title").innerHTML = text[0];
    $("event-meta").innerHTML = t(gettext("Event %(n)s"), { n: e.version }) + " · <code>" + esc(e.type) + "</code> · " +
      (e.entered_by
        ? t(gettext("entered by %(by)s, confirmed by %(confirmed)s"), { by: name(esc(e.entered_by)), confirmed: name(esc(actorName(e.confirmed_by || e.actor_name))) })
        : t(gettext("by %(name)s"), { name: name(esc(actorName(e.actor_name))) })) + " · " + when(e.recorded_at) +
      (e.type === "HandDealt" && commitChecks[e.data.hand_number] ? " · " + t(gettext("commitment %(state)s"), { state: commitChecks[e.data.hand_number] === "verified" ? gettext("verified") : gettext("FAILED") }) : "") +
      (e.full ? "" : " · " + gettext("shown redacted"));
    $("event-detail").innerHTML = text[1];
    localDigits($("event-title")); localDigits($("event-meta")); localDigits($("event-detail"));
    if (data.mode === "table") { drawSheetLines(index); } else { drawTable(e.table); }
    drawScoresheet(e.table);
    $("slider").value = String(index + 1);
    $("position").textContent = (index + 1) + " / " + events.length;
    localDigits($("position"));
    $("hand-jump").value = String(e.table.hand_number);
    $("prev").disabled = index === 0;
    $("next").disabled = index === events.length - 1;
  }

  // --- controls ----------------------------------------------------------------------------
  function setUpControls() {
    $("slider").max = String(Math.max(1, events.length));
    var hands = [], seen = {};
    events.forEach(function (e, i) {
      var n = e.table.hand_number;
      if (!seen[n]) { seen[n] = true; hands.push([n, i]); }
    });
    $("hand-jump").innerHTML = hands.map(function (h) {
      return '<option value="' + h[0] + '" data-index="' + h[1] + '">' + (h[0] ? t(gettext("Hand %(n)s"), { n: h[0] }) : gettext("Start")) + "</option>";
    }).join("");
    localDigits($("hand-jump"));
    $("hand-jump").addEventListener("change", function (ev) {
      var opt = ev.target.selectedOptions[0];
      show(parseInt(opt.getAttribute("data-index"), 10));
    });
    $("first").addEventListener("click", function () { show(0); });
    $("last").addEventListener("click", function () { show(events.length - 1); });
    $("prev").addEventListener("click", function () { show(index - 1); });
    $("next").addEventListener("click", function () { show(index + 1); });
    $("slider").addEventListener("input", function (ev) { show(parseInt(ev.target.value, 10) - 1); });
    document.addEventListener("keydown", function (ev) {
      var tag = (ev.target.tagName || "").toLowerCase();
      if (tag === "textarea" || tag === "input" || tag === "select") { return; }
      // Earlier events lie to the start side: the left, or the right on a right-to-left page.
      var back = document.documentElement.dir === "rtl" ? "ArrowRight" : "ArrowLeft";
      var ahead = back === "ArrowLeft" ? "ArrowRight" : "ArrowLeft";
      if (ev.key === back) { show(index - 1); ev.preventDefault(); }
      else if (ev.key === ahead) { show(index + 1); ev.preventDefault(); }
      else if (ev.key === "Home") { show(0); ev.preventDefault(); }
      else if (ev.key === "End") { show(events.length - 1); ev.preventDefault(); }
    });
  }

  // --- fairness checks ---------------------------------------------------------------------
  function addCheck(id, state, html) {
    var li = document.getElementById(id);
    if (!li) { li = document.createElement("li"); li.id = id; $("checks").appendChild(li); }
    li.className = "check " + state;
    li.setAttribute("data-state", state);
    li.innerHTML = '<span class="mark">' + ({ ok: "✔ " + gettext("checked"), failed: "✘ " + gettext("FAILED"), skipped: "– " + gettext("not checked"), pending: "… " + gettext("checking") }[state]) + "</span> " + html;
    localDigits(li);
  }

  function runChecks() {
    if (!window.crypto || !window.crypto.subtle) {
      addCheck("check-crypto", "skipped", gettext("This browser offers no WebCrypto here (it needs https or localhost): check the audit bundle with tools/verify_match.py instead."));
      $("checks-summary").textContent = gettext("not checked");
      $("checks-summary").setAttribute("data-state", "skipped");
      return;
    }
    var jobs = [];
    events.forEach(function (e) {
      if (e.type !== "HandDealt") { return; }
      var n = e.data.hand_number, id = "check-hand-" + n;
      if (!e.data.deck) {
        addCheck(id, "skipped", t(gettext("Hand %(n)s: deck commitment not checkable by you yet (the deck is revealed to the players and organisers once the hand is over)."), { n: n }));
        return;
      }
      addCheck(id, "pending", t(gettext("Hand %(n)s: deck commitment"), { n: n }));
      jobs.push(window.Audit.commitment(e.data.deck, e.data.salt).then(function (h) {
        var ok = h === e.data.commitment;
        commitChecks[n] = ok ? "verified" : "FAILED";
        addCheck(id, ok ? "ok" : "failed", t(gettext("Hand %(n)s: the revealed deck and salt hash to the commitment published at the deal"), { n: n }) +
          (ok ? "" : " — " + t(gettext("recomputed %(got)s, published %(published)s"), { got: "<code class=\"hash\">" + h + "</code>", published: "<code class=\"hash\">" + esc(e.data.commitment) + "</code>" })));
      }));
    });
    var hashed = events.filter(function (e) { return e.hash; }).length;
    addCheck("check-chain", "pending", gettext("Hash chain"));
    jobs.push(window.Audit.checkChain(data.stream_id, events).then(function (r) {
      if (!r.ok) { addCheck("check-chain", "failed", t(gettext("Hash chain: %(reason)s"), { reason: esc(r.reason) })); return; }
      if (!hashed) { addCheck("check-chain", "skipped", gettext("Hash chain: no event is shown to you in full yet.")); return; }
      addCheck("check-chain", "ok", t(r.checked < events.length
        ? gettext("Hash chain: events 1 to %(n)s recomputed and linked (events after %(n)s are shown redacted to you, or not yet over: not checkable by you).")
        : gettext("Hash chain: events 1 to %(n)s recomputed and linked (every event)."), { n: r.checked }));
    }));
    Promise.all(jobs).then(function () {
      var failed = document.querySelectorAll("#checks .failed").length;
      var summary = $("checks-summary");
      var skipped = document.querySelectorAll("#checks .skipped").length;
      summary.textContent = failed ? t(ngettext("%(n)s failed", "%(n)s failed", failed), { n: failed }) :
        skipped ? t(gettext("all checks passed (%(n)s not checkable by you yet)"), { n: skipped }) : gettext("all checks passed");
      localDigits(summary);
      summary.className = "badge " + (failed ? "failed" : "ok");
      summary.setAttribute("data-state", failed ? "failed" : "ok");
      show(index);
    });
  }

  // --- hands and disputes ------------------------------------------------------------------
  function timesOf(type, hand) {
    return events.filter(function (e) { return e.type === type && e.data.hand_number === hand; });
  }

  function drawHands() {
    if (!data.hands.length) { $("hands").innerHTML = '<p class="muted">' + gettext("No finished hands yet.") + "</p>"; return; }
    var rows = data.hands.map(function (h) {
      var fixes = timesOf("HandCorrected", h.hand_number);
      var history = (h.corrections || []).map(function (c, i) {
        var ev = fixes[i];
        return '<div class="correction"><s>' + entry(c.before, true) + "</s> → " + entry(c.after, true) + ' <span class="muted">' +
          (ev ? t(gettext("corrected by %(by)s at %(at)s: %(reason)s"), { by: name(esc(c.by)), at: when(ev.recorded_at), reason: esc(c.reason) })
            : t(gettext("corrected by %(by)s: %(reason)s"), { by: name(esc(c.by)), reason: esc(c.reason) })) + "</span></div>";
      }).join("");
      var entered = timesOf(data.mode === "table" ? "HandRecorded" : "HandScored", h.hand_number)[0];
      var voidEv = timesOf("HandVoided", h.hand_number)[0];
      var line = kindName(h.kind) + (h.knocker ? ", " + t(gettext("knocker %(name)s"), { name: idName(h.knocker) }) : "") +
        (h.knocker_deadwood !== undefined && h.knocker_deadwood !== null ? ", " + t(gettext("deadwood %(k)s / %(d)s"), { k: h.knocker_deadwood, d: h.defender_deadwood }) : "") +
        (h.winner ? ", " + t(gettext("%(name)s scores %(points)s"), { name: idName(h.winner), points: h.points }) : "") +
        (h.games && h.games.length ? " (" + t(gettext("game %(games)s"), { games: h.games.join(", ") }) + ")" : "");
      var voidLine = voidEv ? t(gettext("voided by %(by)s at %(at)s: %(reason)s"), { by: name(esc(h.void_by)), at: when(voidEv.recorded_at), reason: esc(h.void_reason) })
        : t(gettext("voided by %(by)s: %(reason)s"), { by: name(esc(h.void_by)), reason: esc(h.void_reason) });
      var enteredLine = "";
      if (entered && data.mode === "table") {
        enteredLine = ' <span class="muted">· ' + (entered.confirmed_by
          ? t(gettext("entered by %(by)s, confirmed by %(confirmed)s at %(at)s"), { by: name(esc(entered.entered_by || entered.actor_name)), confirmed: name(esc(entered.confirmed_by)), at: when(entered.recorded_at) })
          : t(gettext("entered by %(by)s at %(at)s"), { by: name(esc(entered.entered_by || entered.actor_name)), at: when(entered.recorded_at) })) + "</span>";
      } else if (entered) {
        enteredLine = ' <span class="muted">· ' + t(gettext("scored at %(at)s (event %(n)s)"), { at: when(entered.recorded_at), n: entered.version }) + "</span>";
      }
      return '<li class="hand-record" id="hand-' + h.hand_number + '"><strong>' + t(gettext("Hand %(n)s"), { n: h.hand_number }) + "</strong>: " +
        (h.voided ? "<s>" + line + "</s> <span class=\"muted\">" + voidLine + "</span>" : line) +
        (h.after_end ? ' <span class="badge">' + gettext("after the match ended: counts in no game") + "</span>" : "") +
        enteredLine + history + "</li>";
    }).join("");
    $("hands").innerHTML = "<ul class=\"hands\">" + rows + "</ul>";
    localDigits($("hands"));
  }

  function drawDisputes() {
    var cases = {}, order = [];
    events.forEach(function (e) {
      var d = e.data;
      if (e.type === "DisputeOpened") { cases[d.dispute] = { open: e, notes: [], end: null }; order.push(d.dispute); }
      else if (e.type === "DisputeCommented" && cases[d.dispute]) { cases[d.dispute].notes.push(e); }
      else if (e.type === "DisputeResolved" && cases[d.dispute]) { cases[d.dispute].end = e; }
    });
    if (!order.length) { $("disputes").innerHTML = '<p class="muted">' + gettext("No dispute on this match.") + "</p>"; return; }
    $("disputes").innerHTML = "<ul>" + order.map(function (k) {
      var c = cases[k], d = c.open.data;
      return '<li class="dispute" data-state="' + (c.end ? esc(c.end.data.outcome) : "open") + '"><strong>#' + k + "</strong> " +
        t(gettext("%(what)s, opened by %(name)s at %(at)s"), { what: aboutText(d.hand_number), name: seatName(d.seat), at: when(c.open.recorded_at) }) +
        ': "' + esc(d.statement) + '"' +
        c.notes.map(function (n) { return "<br>" + name(esc(n.data.by)) + ': "' + esc(n.data.comment) + '"'; }).join("") +
        "<br>" + (c.end ? "<strong>" + outcomeName(c.end.data.outcome) + "</strong> " + t(gettext("by %(name)s: %(reason)s"), { name: name(esc(c.end.data.by)), reason: esc(c.end.data.reason) }) : '<span class="badge">' + gettext("open") + "</span>") +
        (!c.end && (data.organiser || data.your_seat !== null) ? respondForm(k, d.hand_number) : "") +
        "</li>";
    }).join("") + "</ul>";
    localDigits($("disputes"));
    Array.prototype.forEach.call(document.querySelectorAll(".respond button"), function (b) {
      b.addEventListener("click", function () { respond(b); });
    });
  }

  // Anyone of the match comments; an organiser may dismiss here (a ruling goes through the
  // rulings API or the desk, then "ruled" through the resolve API).
  function respondForm(k, hand) {
    return '<div class="respond" data-dispute="' + k + '" data-hand="' + (hand || "") + '"><input type="text" maxlength="2000" aria-label="' + gettext("Comment or reason") + '" placeholder="' + gettext("comment or reason") + '">' +
      '<button type="button" data-act="comment">' + gettext("Comment") + "</button>" +
      (data.organiser ? '<button type="button" data-act="dismiss">' + gettext("Dismiss with this reason") + "</button>" : "") +
      (data.organiser && hand ? '<button type="button" data-act="void">' + t(gettext("Void hand %(n)s (ruling) with this reason"), { n: hand }) + "</button>" : "") +
      '<span class="respond-result" role="status"></span></div>';
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": window.CSRF_TOKEN },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json().then(function (j) { return [r.status, j]; }); });
  }

  function respond(button) {
    var box = button.parentNode, k = box.getAttribute("data-dispute");
    var text = box.querySelector("input").value;
    var base = "/api/matches/" + data.id + "/disputes/" + k;
    var act = button.getAttribute("data-act"), hand = parseInt(box.getAttribute("data-hand"), 10);
    var req;
    if (act === "dismiss") { req = post(base + "/resolve/", { outcome: "dismissed", reason: text }); }
    else if (act === "void") {
      req = post(base + "/resolve/", { outcome: "ruled", reason: text,
        ruling: { type: "void_hand", hand_number: hand, reason: text } });
    } else { req = post(base + "/comments/", { comment: text }); }
    req.then(function (res) {
      if (res[0] === 201) { window.location.reload(); return; }
      box.querySelector(".respond-result").textContent = (res[1].error && res[1].error.message) || gettext("Refused.");
    });
  }

  function setUpDisputeForm() {
    var form = $("dispute-form");
    if (!form) { return; }
    data.hands.forEach(function (h) {
      var o = document.createElement("option");
      o.value = String(h.hand_number); o.textContent = t(gettext("hand %(n)s"), { n: h.hand_number });
      $("dispute-hand").appendChild(o);
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var hand = $("dispute-hand").value;
      var body = { statement: $("dispute-statement").value };
      if (hand) { body.hand_number = parseInt(hand, 10); }
      post("/api/matches/" + data.id + "/disputes/", body)
        .then(function (res) {
          if (res[0] === 201) { $("dispute-result").textContent = t(gettext("Dispute #%(n)s opened."), { n: res[1].dispute }); window.location.reload(); }
          else { $("dispute-result").textContent = (res[1].error && res[1].error.message) || gettext("Could not open the dispute."); }
        });
    });
  }

  setUpControls();
  drawHands();
  drawDisputes();
  setUpDisputeForm();
  show(index);
  runChecks();
})();
