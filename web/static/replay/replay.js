/* The replay page: steps through the events (buttons, slider, hand jump, arrow keys), draws
   the table after each, and runs the fairness checks of verify.js. No build step. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var C = window.Cards, esc = C.esc;
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
    return seat === null || seat === undefined ? "—" : esc(data.players[seat].name);
  }
  function idName(pid) { return byId[pid] ? esc(byId[pid].name) : "—"; }
  function cards(list) { return '<span class="cards">' + C.cardsHtml(list) + "</span>"; }
  function melds(list) {
    return (list || []).map(function (m) { return '<span class="meld">' + C.cardsHtml(m) + "</span>"; }).join(" ");
  }
  // Times in the match's tournament's zone (UTC for a friendly), as on the other pages; the
  // events carry UTC instants ("...Z", 6 fraction digits), which also feed the hash chain.
  var zone = $("replay").getAttribute("data-time-zone") || "UTC";
  var clock = (function () {
    try {
      return new Intl.DateTimeFormat("en-GB", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit",
        hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23", timeZoneName: "short" });
    } catch (err) { return null; }  // a browser without this zone: UTC, and the page says so
  })();
  if (!clock && zone !== "UTC") { $("time-zone").textContent = "times in UTC (this browser does not know " + zone + ")"; }
  function when(text) {
    var at = new Date(String(text).replace(/(\.\d{3})\d*Z$/, "$1Z"));
    if (!clock || isNaN(at.getTime())) { return esc(String(text).replace("T", " ").replace(/\.\d+Z$/, " UTC")); }
    var p = {};
    clock.formatToParts(at).forEach(function (part) { p[part.type] = part.value; });
    return esc(p.year + "-" + p.month + "-" + p.day + " " + p.hour + ":" + p.minute + ":" + p.second + " " + p.timeZoneName);
  }

  // --- one event in words (and cards) ----------------------------------------------------
  function describe(i) {
    var e = events[i], d = e.data, before = i > 0 ? events[i - 1].table : null;
    switch (e.type) {
      case "MatchStarted":
        return ["Match started", "Mode " + esc(d.mode) + "; first dealer " + seatName(d.first_dealer) + "."];
      case "HandDealt":
        return ["Hand " + d.hand_number + " dealt by " + seatName(d.dealer),
          "Deck commitment <code class=\"hash\">" + esc(d.commitment) + "</code>" +
          (d.deck ? " (deck and salt revealed: the hand is over)" : " (deck hidden while the hand is in play)")];
      case "UpcardPassed":
        return [seatName(d.seat) + " passed the upcard", ""];
      case "CardDrawn":
        var took = before && before.phase === "upcard" && d.source === "discard";
        return [seatName(d.seat) + (took ? " took the upcard" : " drew from the " + (d.source === "stock" ? "stock" : "discard pile")),
          d.card ? cards([d.card]) : '<span class="cards">' + C.cardBack() + "</span> (hidden from you)"];
      case "CardDiscarded":
        return [seatName(d.seat) + " discarded", cards([d.card])];
      case "Knocked":
        return [seatName(d.seat) + (d.gin ? " went gin" : " knocked"),
          "Discard " + cards([d.discard]) + "<br>Melds " + melds(d.melds) +
          "<br>Deadwood " + cards(d.deadwood) + " = <strong>" + d.deadwood_value + "</strong>"];
      case "DefenceLaidOut":
        var lay = (d.layoffs || []).map(function (l) { return C.cardSvg(l[0]) + '<span class="muted">on meld ' + (l[1] + 1) + "</span>"; }).join(" ");
        return [seatName(d.seat) + " laid out (defence)",
          "Melds " + melds(d.melds) + "<br>Layoffs " + (lay || "none") +
          "<br>Deadwood " + cards(d.deadwood) + " = <strong>" + d.deadwood_value + "</strong>"];
      case "HandScored":
        return ["Hand " + d.hand_number + ": " + esc(d.kind) + ", " + seatName(d.winner) + " scores " + d.points,
          "Deadwood: knocker (" + seatName(d.knocker) + ") " + d.knocker_deadwood + ", defender " + d.defender_deadwood +
          "; points go to game(s) " + (d.games.join(", ") || "none") + "."];
      case "HandDrawn":
        return ["Hand " + d.hand_number + " drawn", "Two cards left in the stock: no score, the same dealer deals again."];
      case "HandRecorded":
        return ["Hand " + d.hand_number + " recorded (table)", "Knocker " + seatName(d.knocker) + (d.gin ? ", gin" : "") +
          "; deadwood " + d.knocker_deadwood + " / " + d.defender_deadwood + "."];
      case "GameWon":
        return ["Game " + d.game + " won by " + seatName(d.winner), "Scores " + d.scores.join(" – ") +
          (d.bonuses.some(Boolean) ? "; bonuses " + d.bonuses.join(" – ") : "") + "."];
      case "MatchFinished":
        return ["Match finished: " + seatName(d.winner) + " wins", "Reason: " + esc(d.reason) + "."];
      case "HandVoided":
        return ["Hand " + d.hand_number + " voided", "By " + esc(d.by) + ": " + esc(d.reason)];
      case "HandCorrected":
        return ["Hand " + d.hand_number + " corrected", "By " + esc(d.by) + ": " + esc(d.reason) +
          '<br><s>' + entry(d.before) + "</s><br>" + entry(d.after)];
      case "MatchReopened":
        return ["Match reopened", "After the " + esc(d.reason) + " of hand " + d.hand_number + "."];
      case "ScoreAdjusted":
        return ["Score adjusted: " + seatName(d.seat) + " " + (d.points > 0 ? "+" : "") + d.points + " in game " + d.game,
          "By " + esc(d.by) + ": " + esc(d.reason)];
      case "MatchForfeited":
        return ["Match forfeited: " + seatName(d.winner) + " wins", "By " + esc(d.by) + ": " + esc(d.reason)];
      case "PlayerResigned":
        return [seatName(d.seat) + " resigned", ""];
      case "MatchCancelled":
        return ["Match cancelled", "By " + esc(d.by) + ": " + esc(d.reason)];
      case "DisputeOpened":
        return ["Dispute #" + d.dispute + " opened by " + seatName(d.seat),
          "About " + (d.hand_number ? "hand " + d.hand_number : "the whole match") + ': "' + esc(d.statement) + '"'];
      case "DisputeCommented":
        return ["Comment on dispute #" + d.dispute, esc(d.by) + ': "' + esc(d.comment) + '"'];
      case "DisputeResolved":
        return ["Dispute #" + d.dispute + " " + esc(d.outcome), "By " + esc(d.by) + ": " + esc(d.reason)];
      default:
        return [esc(e.type), "<code>" + esc(JSON.stringify(d)) + "</code>"];
    }
  }

  // A table hand's entry; players by seat (in events) or, with `ids`, by player id (in the
  // hand records of the match's view).
  function entry(x, ids) {
    if (!x) { return ""; }
    if (x.kind === "drawn" || x.drawn) { return "drawn hand"; }
    var who = ids ? idName : seatName;
    return esc(x.kind) + ": knocker " + who(x.knocker) + ", deadwood " + x.knocker_deadwood + " / " +
      x.defender_deadwood + ", " + who(x.winner) + " scores " + x.points;
  }

  // --- the table ---------------------------------------------------------------------------
  function seatHtml(t, seat) {
    var p = data.players[seat], key = String(p.id), hand = t.hands[key], count = t.card_counts[key];
    var tags = [];
    if (t.dealer === p.id) { tags.push('<span class="badge">dealer</span>'); }
    if (t.turn === p.id && ["upcard", "draw", "discard"].indexOf(t.phase) >= 0) { tags.push('<span class="badge turn">to play</span>'); }
    if (data.your_seat === seat) { tags.push('<span class="badge">you</span>'); }
    var shown;
    if (hand) { shown = C.cardsHtml(hand); }
    else { shown = new Array(count + 1).join(C.cardBack()); }
    return '<h3>' + esc(p.name) + " " + tags.join(" ") + ' <span class="muted">' + count + " cards</span></h3>" +
      '<div class="cards hand" data-seat="' + seat + '">' + (shown || '<span class="muted">no cards</span>') + "</div>";
  }

  function drawTable(t) {
    $("seat-0").innerHTML = seatHtml(t, 0);
    $("seat-1").innerHTML = seatHtml(t, 1);
    $("stock").innerHTML = t.stock_count ? C.cardBack() + '<span class="count">' + t.stock_count + "</span>" : '<span class="muted">empty</span>';
    var pile = t.discard_pile || [];
    var top = pile.slice(-6);
    $("discard").innerHTML = pile.length ?
      (pile.length > top.length ? '<span class="muted">' + (pile.length - top.length) + " more · </span>" : "") +
      C.cardsHtml(top.slice(0, -1), "under") + C.cardSvg(top[top.length - 1], t.upcard ? "upcard" : "top") +
      (t.upcard ? ' <span class="badge">upcard</span>' : "") : '<span class="muted">empty</span>';
    var note = "", ids = data.players.map(function (p) { return String(p.id); });
    if (data.mode === "table") { note = "A table match: hands are played at the table, only their results are recorded."; }
    else if (!t.card_counts[ids[0]] && !t.card_counts[ids[1]]) { note = "No hand in play at this point (the table is cleared once a hand is scored: step back to see how it ended)."; }
    else if (t.hands[ids[0]] && t.hands[ids[1]]) { note = "This hand is over: both hands are shown."; }
    else if (data.your_seat !== null) { note = "The hand is in play at this point: you see only your own cards."; }
    else { note = "Players' cards are shown to the match's players and organisers once a hand is over."; }
    $("table-note").textContent = note;
  }

  function drawScoresheet(t) {
    var s = t.scoresheet, names = data.players.map(function (p) { return esc(p.name); });
    var ids = data.players.map(function (p) { return String(p.id); });
    var rows = s.games.map(function (g) {
      return "<tr><td>Game " + g.game + '</td><td class="num">' + g.scores[ids[0]] + '</td><td class="num">' + g.scores[ids[1]] +
        "</td><td>" + (g.winner === null ? "open" : idName(g.winner)) + "</td></tr>";
    }).join("");
    $("scoresheet").innerHTML = "<table><tr><th>Game</th><th class=\"num\">" + names[0] + "</th><th class=\"num\">" + names[1] +
      "</th><th>Winner</th></tr>" + rows + '<tr><td>Games won</td><td class="num">' + s.games_won[ids[0]] + '</td><td class="num">' +
      s.games_won[ids[1]] + "</td><td></td></tr></table>";
  }

  function show(i) {
    if (!events.length) { $("event-title").textContent = "No events yet."; return; }
    index = Math.max(0, Math.min(events.length - 1, i));
    var e = events[index], text = describe(index);
    $("event-title").innerHTML = text[0];
    $("event-meta").innerHTML = "Event " + e.version + " · " + esc(e.type) + " · by " + esc(e.actor_name) + " · " + when(e.recorded_at) +
      (e.type === "HandDealt" && commitChecks[e.data.hand_number] ? " · commitment " + commitChecks[e.data.hand_number] : "") +
      (e.full ? "" : " · shown redacted");
    $("event-detail").innerHTML = text[1];
    drawTable(e.table);
    drawScoresheet(e.table);
    $("slider").value = String(index + 1);
    $("position").textContent = (index + 1) + " / " + events.length;
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
      return '<option value="' + h[0] + '" data-index="' + h[1] + '">' + (h[0] ? "Hand " + h[0] : "Start") + "</option>";
    }).join("");
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
      if (ev.key === "ArrowLeft") { show(index - 1); ev.preventDefault(); }
      else if (ev.key === "ArrowRight") { show(index + 1); ev.preventDefault(); }
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
    li.innerHTML = '<span class="mark">' + ({ ok: "✔ checked", failed: "✘ FAILED", skipped: "– not checked", pending: "… checking" }[state]) + "</span> " + html;
  }

  function runChecks() {
    if (!window.crypto || !window.crypto.subtle) {
      addCheck("check-crypto", "skipped", "This browser offers no WebCrypto here (it needs https or localhost): check the audit bundle with tools/verify_match.py instead.");
      $("checks-summary").textContent = "not checked";
      $("checks-summary").setAttribute("data-state", "skipped");
      return;
    }
    var jobs = [];
    events.forEach(function (e) {
      if (e.type !== "HandDealt") { return; }
      var n = e.data.hand_number, id = "check-hand-" + n;
      if (!e.data.deck) {
        addCheck(id, "skipped", "Hand " + n + ": deck commitment not checkable by you yet (the deck is revealed to the players and organisers once the hand is over).");
        return;
      }
      addCheck(id, "pending", "Hand " + n + ": deck commitment");
      jobs.push(window.Audit.commitment(e.data.deck, e.data.salt).then(function (h) {
        var ok = h === e.data.commitment;
        commitChecks[n] = ok ? "verified" : "FAILED";
        addCheck(id, ok ? "ok" : "failed", "Hand " + n + ": the revealed deck and salt hash to the commitment published at the deal" +
          (ok ? "" : " — recomputed <code class=\"hash\">" + h + "</code>, published <code class=\"hash\">" + esc(e.data.commitment) + "</code>"));
      }));
    });
    var hashed = events.filter(function (e) { return e.hash; }).length;
    addCheck("check-chain", "pending", "Hash chain");
    jobs.push(window.Audit.checkChain(data.stream_id, events).then(function (r) {
      if (!r.ok) { addCheck("check-chain", "failed", "Hash chain: " + esc(r.reason)); return; }
      if (!hashed) { addCheck("check-chain", "skipped", "Hash chain: no event is shown to you in full yet."); return; }
      addCheck("check-chain", "ok", "Hash chain: events 1 to " + r.checked + " recomputed and linked" +
        (r.checked < events.length ? " (events after " + r.checked + " are shown redacted to you, or not yet over: not checkable by you)" : " (every event)") + ".");
    }));
    Promise.all(jobs).then(function () {
      var failed = document.querySelectorAll("#checks .failed").length;
      var summary = $("checks-summary");
      var skipped = document.querySelectorAll("#checks .skipped").length;
      summary.textContent = failed ? failed + " failed" :
        "all checks passed" + (skipped ? " (" + skipped + " not checkable by you yet)" : "");
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
    if (!data.hands.length) { $("hands").innerHTML = '<p class="muted">No finished hands yet.</p>'; return; }
    var rows = data.hands.map(function (h) {
      var fixes = timesOf("HandCorrected", h.hand_number);
      var history = (h.corrections || []).map(function (c, i) {
        var ev = fixes[i];
        return '<div class="correction"><s>' + entry(c.before, true) + "</s> → " + entry(c.after, true) + ' <span class="muted">corrected by ' +
          esc(c.by) + (ev ? " at " + when(ev.recorded_at) : "") + ": " + esc(c.reason) + "</span></div>";
      }).join("");
      var entered = timesOf(data.mode === "table" ? "HandRecorded" : "HandScored", h.hand_number)[0];
      var voidEv = timesOf("HandVoided", h.hand_number)[0];
      var line = esc(h.kind) + (h.knocker ? ", knocker " + idName(h.knocker) : "") +
        (h.knocker_deadwood !== undefined && h.knocker_deadwood !== null ? ", deadwood " + h.knocker_deadwood + " / " + h.defender_deadwood : "") +
        (h.winner ? ", " + idName(h.winner) + " scores " + h.points : "") + (h.games && h.games.length ? " (game " + h.games.join(", ") + ")" : "");
      return '<li class="hand-record" id="hand-' + h.hand_number + '"><strong>Hand ' + h.hand_number + "</strong>: " +
        (h.voided ? "<s>" + line + "</s> <span class=\"muted\">voided by " + esc(h.void_by) + (voidEv ? " at " + when(voidEv.recorded_at) : "") + ": " + esc(h.void_reason) + "</span>" : line) +
        (h.after_end ? ' <span class="badge">after the match ended: counts in no game</span>' : "") +
        (entered && data.mode === "table" ? ' <span class="muted">· entered by ' + esc(entered.entered_by || entered.actor_name) +
          (entered.confirmed_by ? ", confirmed by " + esc(entered.confirmed_by) : "") + " at " + when(entered.recorded_at) + "</span>" : "") +
        (entered && data.mode !== "table" ? ' <span class="muted">· scored at ' + when(entered.recorded_at) + " (event " + entered.version + ")</span>" : "") +
        history + "</li>";
    }).join("");
    $("hands").innerHTML = "<ul class=\"hands\">" + rows + "</ul>";
  }

  function drawDisputes() {
    var cases = {}, order = [];
    events.forEach(function (e) {
      var d = e.data;
      if (e.type === "DisputeOpened") { cases[d.dispute] = { open: e, notes: [], end: null }; order.push(d.dispute); }
      else if (e.type === "DisputeCommented" && cases[d.dispute]) { cases[d.dispute].notes.push(e); }
      else if (e.type === "DisputeResolved" && cases[d.dispute]) { cases[d.dispute].end = e; }
    });
    if (!order.length) { $("disputes").innerHTML = '<p class="muted">No dispute on this match.</p>'; return; }
    $("disputes").innerHTML = "<ul>" + order.map(function (k) {
      var c = cases[k], d = c.open.data;
      return '<li class="dispute" data-state="' + (c.end ? esc(c.end.data.outcome) : "open") + '"><strong>#' + k + "</strong> " +
        (d.hand_number ? "hand " + d.hand_number : "the whole match") + ", opened by " + seatName(d.seat) + " at " + when(c.open.recorded_at) +
        ': "' + esc(d.statement) + '"' +
        c.notes.map(function (n) { return "<br>" + esc(n.data.by) + ': "' + esc(n.data.comment) + '"'; }).join("") +
        "<br>" + (c.end ? "<strong>" + esc(c.end.data.outcome) + "</strong> by " + esc(c.end.data.by) + ": " + esc(c.end.data.reason) : '<span class="badge">open</span>') +
        (!c.end && (data.organiser || data.your_seat !== null) ? respondForm(k, d.hand_number) : "") +
        "</li>";
    }).join("") + "</ul>";
    Array.prototype.forEach.call(document.querySelectorAll(".respond button"), function (b) {
      b.addEventListener("click", function () { respond(b); });
    });
  }

  // Anyone of the match comments; an organiser may dismiss here (a ruling goes through the
  // rulings API or the desk, then "ruled" through the resolve API).
  function respondForm(k, hand) {
    return '<div class="respond" data-dispute="' + k + '" data-hand="' + (hand || "") + '"><input type="text" maxlength="2000" aria-label="Comment or reason" placeholder="comment or reason">' +
      '<button type="button" data-act="comment">Comment</button>' +
      (data.organiser ? '<button type="button" data-act="dismiss">Dismiss with this reason</button>' : "") +
      (data.organiser && hand ? '<button type="button" data-act="void">Void hand ' + hand + " (ruling) with this reason</button>" : "") +
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
      box.querySelector(".respond-result").textContent = (res[1].error && res[1].error.message) || "Refused.";
    });
  }

  function setUpDisputeForm() {
    var form = $("dispute-form");
    if (!form) { return; }
    data.hands.forEach(function (h) {
      var o = document.createElement("option");
      o.value = String(h.hand_number); o.textContent = "hand " + h.hand_number;
      $("dispute-hand").appendChild(o);
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var hand = $("dispute-hand").value;
      var body = { statement: $("dispute-statement").value };
      if (hand) { body.hand_number = parseInt(hand, 10); }
      post("/api/matches/" + data.id + "/disputes/", body)
        .then(function (res) {
          if (res[0] === 201) { $("dispute-result").textContent = "Dispute #" + res[1].dispute + " opened."; window.location.reload(); }
          else { $("dispute-result").textContent = (res[1].error && res[1].error.message) || "Could not open the dispute."; }
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
