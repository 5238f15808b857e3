// The play page's line to the server: a move posted (postMove), the match followed
// (follow), and what the page keeps in the browser (kept, keep). Following is the match's
// stream (server-sent events; the browser resumes with Last-Event-ID after a lost
// connection; a refused stream, a WSGI server's 503, is retried from where the page is,
// backing off), and a page that has heard nothing for a while asks for the match again
// (a notification lost on the way, or a practice bot's job lost: the API's answer to the
// player queues the bot once more), so it never stays on an old position.
//
// follow({ url(), show(state), onView(view), onEvent(event), refetch(), waiting(), quiet })
// `url()`: the stream's address from the page's version; `show`: the indicator's state
// (connecting, live, reconnecting, polling); `waiting()`: the page waits on the other side.
export function follow(o) {
  var source = null, retry = 2000, heard = Date.now();
  function connect() {
    if (!window.EventSource) { o.show("polling"); window.setInterval(o.refetch, 5000); return; }
    source = new EventSource(o.url());
    source.addEventListener("open", function () { retry = 2000; heard = Date.now(); o.show("live"); });
    source.addEventListener("view", function (e) { heard = Date.now(); o.onView(JSON.parse(e.data)); });
    source.addEventListener("event", function (e) { heard = Date.now(); o.onEvent(JSON.parse(e.data)); });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        // Refused: the browser does not retry; we do, from where we are.
        o.show("reconnecting"); source = null;
        window.setTimeout(connect, retry); retry = Math.min(retry * 2, 60000);
        o.refetch();
      } else {
        o.show("reconnecting"); // the browser reconnects by itself, sending Last-Event-ID
      }
    });
  }
  window.setInterval(function () {
    if (!o.waiting() || Date.now() - heard < o.quiet) return;
    heard = Date.now();
    o.refetch();
  }, 1000);
  o.show("connecting");
  connect();
}

function uuid() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return "k" + Date.now().toString(36) + Math.random().toString(36).slice(2);
}

// A move: POST `body` (JSON) with the session's CSRF token and an Idempotency-Key kept
// for every try of this move, so a move sent twice is one move. Resolves to
// {ok, status, data}; rejects when the server could not be reached after the tries.
export function postMove(url, csrf, body) {
  var key = uuid();
  var text = JSON.stringify(body);
  function attempt(tries) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json",
                 "X-CSRFToken": csrf, "Idempotency-Key": key },
      body: text,
    }).then(function (r) {
      // The server could not reach its database just then (503, Retry-After): the same
      // move again, with the same key, so it is still one move.
      if (r.status === 503 && tries > 0) {
        var pause = Math.min(Number(r.headers.get("Retry-After")) || 1, 3) * 1000;
        return new Promise(function (ok) { window.setTimeout(ok, pause); }).then(function () { return attempt(tries - 1); });
      }
      return r.json().then(function (data) { return { ok: r.ok, status: r.status, data: data }; });
    }, function (err) {
      if (tries > 0) return new Promise(function (ok) { window.setTimeout(ok, 800); }).then(function () { return attempt(tries - 1); });
      throw err;
    });
  }
  return attempt(3);
}

// What the page keeps in this browser (localStorage, as JSON), its own state and not the
// server's: nothing kept (private mode, storage full) only means it is not kept.
export function kept(key) {
  try { return JSON.parse(window.localStorage.getItem(key) || "null"); } catch (e) { return null; }
}
export function keep(key, value) {
  try { window.localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* not kept */ }
}
