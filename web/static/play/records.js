// What the play page shows beside the table, from the view alone: the knock's (or the
// resignation's) confirmation, a hand's end with both arrangements and the layoffs, and the
// Hollywood scoresheet. Each returns HTML; play.js puts it in place.
import { arrangements, best } from "./melds.js";
import { button, cardFace, esc, nameIn, num, t } from "./words.js";

export function meldsHtml(melds, deadwood) {
  return (melds || []).map(function (m) {
    return '<span class="meld-line">' + m.map(function (c) { return cardFace(c); }).join("") + "</span>";
  }).join("") + (deadwood && deadwood.length ? '<span class="meld-line dead">' +
    deadwood.map(function (c) { return cardFace(c); }).join("") + "</span>" : "");
}

// `confirming`: {kind: "knock", card} or {kind: "resign"}; `chosen`: the arrangement
// picked (-1: the server lays it); `busy`: a move on its way.
export function renderConfirm(confirming, view, chosen, busy) {
  if (!confirming) return "";
  if (confirming.kind === "resign") {
    return '<div class="confirm" role="dialog" aria-modal="true" aria-labelledby="confirm-title"><h2 id="confirm-title">' +
      esc(t("resign_confirm")) + "</h2>" + button("confirm", t("resign"), !busy, ' class="danger"') +
      button("cancel", t("cancel"), true, ' class="secondary"') + "</div>";
  }
  var left = view.your_cards.filter(function (c) { return c !== confirming.card; });
  var limit = view.ruleset.knock_limit;
  var options = arrangements(left, 24).filter(function (a) { return a.value <= limit; }).slice(0, 6);
  var top = options[0] || best(left);
  // The radio beside its words (in a box of their own, which may wrap), never alone above them.
  var rows = '<label class="option"><input type="radio" name="arrangement" value="-1"' +
    (chosen < 0 ? " checked" : "") + '> <span class="option-body">' + esc(t("server_lays")) +
    "</span></label>";
  options.forEach(function (a, i) {
    rows += '<label class="option"><input type="radio" name="arrangement" value="' + i + '"' +
      (chosen === i ? " checked" : "") + '> <span class="option-body">' +
      esc(t("deadwood_n", { n: a.value })) + " " + meldsHtml(a.melds, a.deadwood) + "</span></label>";
  });
  return '<div class="confirm" role="dialog" aria-modal="true" aria-labelledby="confirm-title">' +
    '<h2 id="confirm-title">' + esc(top.value === 0 ? t("gin_confirm") : t("knock_confirm")) + "</h2>" +
    "<p>" + esc(t("discarding")) + " " + cardFace(confirming.card) + " · <strong data-deadwood>" +
    esc(t("deadwood_n", { n: top.value })) + "</strong></p>" +
    '<p class="muted">' + esc(t("best_arrangement")) + "</p><div class=\"preview\">" +
    meldsHtml(top.melds, top.deadwood) + "</div>" +
    '<fieldset><legend>' + esc(t("lay_how")) + "</legend>" + rows + "</fieldset>" +
    button("confirm", top.value === 0 ? t("gin") : t("knock"), !busy) +
    button("cancel", t("cancel"), true, ' class="secondary"') + "</div>";
}

export function renderHandOver(record, view, me) {
  var nameOf = function (id) { return nameIn(view.players, id); };
  if (!record) return "";
  var hands = record.hands || {};
  var kind = t("kind_" + record.kind);
  var head = record.winner ? t("hand_won", { name: nameOf(record.winner), points: record.points })
    : t("hand_drawn");
  var out = '<div class="hand-end" data-hand-end="' + record.hand_number + '"><h2>' +
    esc(t("hand_n", { n: record.hand_number })) + ": " + esc(kind) + "</h2><p><strong>" + esc(head) +
    "</strong>" + (record.games && record.games.length ? " · " + esc(t("to_games", { games: record.games.map(num).join(", ") })) : "") + "</p>";
  if (record.knock) {
    out += "<h3>" + esc(t("laid_by", { name: nameOf(record.knock.player) })) + " · " +
      esc(t("deadwood_n", { n: record.knock.deadwood_value })) + "</h3>" +
      '<div class="preview">' + meldsHtml(record.knock.melds, record.knock.deadwood) + "</div>";
  }
  if (record.defence) {
    out += "<h3>" + esc(t("laid_by", { name: nameOf(record.defence.player) })) + " · " +
      esc(t("deadwood_n", { n: record.defence.deadwood_value })) + "</h3>" +
      '<div class="preview">' + meldsHtml(record.defence.melds, record.defence.deadwood) + "</div>";
    if (record.defence.layoffs && record.defence.layoffs.length) {
      out += "<p>" + esc(t("layoffs")) + " " + record.defence.layoffs.map(function (l) {
        return cardFace(l[0]);
      }).join(" ") + "</p>";
    }
  }
  if (!record.knock && hands[String(me)]) {
    Object.keys(hands).forEach(function (pid) {
      out += "<h3>" + esc(nameOf(Number(pid))) + '</h3><div class="preview">' +
        meldsHtml([], hands[pid]) + "</div>";
    });
  }
  return out + "</div>";
}

export function renderSheet(view) {
  var sheet = view.scoresheet;
  if (!sheet) return "";
  var ps = view.players;
  var rows = sheet.games.map(function (g) {
    return "<tr><th scope=\"row\">" + esc(t("game_n", { n: g.game })) + "</th>" + ps.map(function (p) {
      var won = g.winner === p.id ? " won" : "";
      var score = g.scores[String(p.id)];
      return '<td class="num' + won + '" data-game="' + g.game + '" data-player="' + p.id +
        '" data-value="' + score + '">' + num(score) + "</td>";
    }).join("") + "</tr>";
  }).join("");
  return '<table class="sheet"><thead><tr><th></th>' + ps.map(function (p) {
    return '<th class="num"><bdi>' + esc(p.name) + "</bdi></th>";
  }).join("") + "</tr></thead><tbody>" + rows + "</tbody><tfoot><tr><th>" + esc(t("games_won")) +
    "</th>" + ps.map(function (p) {
      return '<td class="num" data-games-won="' + p.id + '">' + num(sheet.games_won[String(p.id)]) + "</td>";
    }).join("") + "</tr><tr><th>" + esc(t("total")) + "</th>" + ps.map(function (p) {
      return '<td class="num" data-total="' + p.id + '">' + num(sheet.totals[String(p.id)]) + "</td>";
    }).join("") + "</tr></tfoot></table>";
}
