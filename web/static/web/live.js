// Live fragments. An element such as
//   <div data-stream="/api/tournaments/7/stream/?after=42" data-live-url="/tournaments/7/"
//        data-live-target="#tournament-live" data-live-poll="15" data-live-every="60">
// follows the stream (server-sent events, resumable from the version the page shows) and,
// when an `event` message arrives, asks data-live-url again (with HX-Request: the view
// answers the fragment only) and swaps it for data-live-target (outerHTML; htmx when the
// page has it, so hx- attributes in the fragment work). A burst of events refreshes once.
//
// Without data-stream (a signed-out visitor of a match), or where the stream is unavailable
// (a WSGI server answers 503; a proxy that drops it), the fragment is polled every data-live-poll seconds
// and the stream is tried again with a growing pause; data-live-every refreshes on a timer
// whatever the stream does (a round clock moves without events). An element marked
// [data-live-indicator] inside the box shows "Live", "Reconnecting…" or "Updates every
// N s" (its data-state: connecting, live, reconnecting, polling) for people and tests.
(function () {
  "use strict";

  function follow(box) {
    var url = box.dataset.liveUrl || window.location.pathname;
    var target = box.dataset.liveTarget ? document.querySelector(box.dataset.liveTarget) : null;
    var poll = (parseInt(box.dataset.livePoll, 10) || 15) * 1000;
    var every = (parseInt(box.dataset.liveEvery, 10) || 0) * 1000;
    var indicator = box.querySelector("[data-live-indicator]");
    var streamUrl = box.dataset.stream;
    var lastId = null, source = null, pollTimer = null, retryDelay = 5000, pending = null;
    var inFlight = false, again = false, entriesSeen = 0;

    // The words come translated from the page (data-t-*, web/templates/web/_live_texts.html);
    // {n} is the seconds between polls, in the page language's digits.
    var seconds = (poll / 1000).toLocaleString(document.documentElement.lang || "en");
    function text(name, fallback) {
      return (box.dataset[name] || fallback).replace("{n}", seconds);
    }

    function show(state) {
      if (!indicator) return;
      indicator.dataset.state = state;
      indicator.textContent = state === "live" ? text("tLive", "Live")
        : state === "polling" ? text("tPolling", "Updates every {n} s")
        : state === "connecting" ? text("tConnecting", "Connecting…")
        : text("tReconnecting", "Reconnecting…");
      indicator.title = state === "live" ? text("tLiveTitle", "This page updates itself as results come in.")
        : text("tPollingTitle", "The live stream is unavailable: this page asks for updates every {n} s.");
    }

    function swap(html) {
      var current = box.dataset.liveTarget ? document.querySelector(box.dataset.liveTarget) : target;
      if (!current) return;
      if (window.htmx) {
        window.htmx.swap(current, html, { swapStyle: "outerHTML" });
      } else {
        current.outerHTML = html;
      }
    }

    function refresh() {
      if (inFlight) { again = true; return; }
      inFlight = true;
      fetch(url, { credentials: "same-origin", headers: { "HX-Request": "true" } })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (html !== null) {
            swap(html);
            box.dataset.refreshed = String((parseInt(box.dataset.refreshed, 10) || 0) + 1);
          }
        })
        .catch(function () { /* the next event or poll tries again */ })
        .then(function () {
          inFlight = false;
          if (again) { again = false; refresh(); }
        });
    }

    function soon() {
      if (pending === null) {
        pending = window.setTimeout(function () { pending = null; refresh(); }, 250);
      }
    }

    function startPolling() {
      if (pollTimer === null) pollTimer = window.setInterval(refresh, poll);
    }

    function stopPolling() {
      if (pollTimer !== null) { window.clearInterval(pollTimer); pollTimer = null; }
    }

    function resumeUrl() {
      if (lastId === null) return streamUrl;
      var base = streamUrl.replace(/([?&])after=\d*&?/, "$1").replace(/[?&]$/, "");
      return base + (base.indexOf("?") < 0 ? "?" : "&") + "after=" + lastId;
    }

    function connect() {
      if (!window.EventSource || !streamUrl) { show("polling"); startPolling(); return; }
      source = new EventSource(resumeUrl());
      source.addEventListener("open", function () {
        retryDelay = 5000;
        stopPolling();
        show("live");
      });
      source.addEventListener("event", function (e) {
        if (e.lastEventId) lastId = e.lastEventId;
        soon();
      });
      // A table match's stream also tells its players and organisers of the table's
      // entry (a hand entered on a phone, confirmed, rejected...): not an event, no id.
      // The first comes on connecting, with the entry as it is then: the fragment is
      // asked again unless it shows that entry already (its data-live-entry), for it may
      // have changed between the page's making and the stream's opening.
      source.addEventListener("entry", function (e) {
        if (box.dataset.liveEntries === undefined) return;
        var current = box.dataset.liveTarget ? document.querySelector(box.dataset.liveTarget) : null;
        var shown = current ? current.dataset.liveEntry : undefined;
        if (shown === undefined) {
          if (entriesSeen++) soon();
          return;
        }
        var entry = null;
        try { entry = JSON.parse(e.data); } catch (err) { entry = undefined; }
        var now = entry ? entry.id + "/" + entry.status + "/" + entry.version : "";
        if (entry === undefined || now !== shown) soon();
      });
      source.addEventListener("error", function () {
        startPolling();
        if (source.readyState === EventSource.CLOSED) {
          // Refused (e.g. 503 under a WSGI server): the browser will not retry by itself.
          show("polling");
          source = null;
          window.setTimeout(connect, retryDelay);
          retryDelay = Math.min(retryDelay * 2, 300000);
        } else {
          show("reconnecting"); // the browser retries, sending Last-Event-ID
        }
      });
    }

    show("connecting");
    connect();
    if (every) window.setInterval(refresh, every);
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-live-url]"), follow);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
