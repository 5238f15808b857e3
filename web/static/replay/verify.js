/* The audit checks of the replay page, by WebCrypto SHA-256 over the encodings documented
   in README.md ("Audit encodings"). Mirrors tools/verify_match.py. */
(function (global) {
  "use strict";

  // Python's json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False):
  // keys sorted by code point, no spaces; strings escaped as JSON.stringify does (the same
  // escapes for the values events hold: card codes, names, hex, plain text).
  function canonicalJson(value) {
    if (value === null || typeof value !== "object") { return JSON.stringify(value); }
    if (Array.isArray(value)) { return "[" + value.map(canonicalJson).join(",") + "]"; }
    var keys = Object.keys(value).sort(function (a, b) { return a < b ? -1 : a > b ? 1 : 0; });
    return "{" + keys.map(function (k) {
      return JSON.stringify(k) + ":" + canonicalJson(value[k]);
    }).join(",") + "}";
  }

  // The commitment's JSON escapes non-ASCII (Python's default ensure_ascii=True).
  function asciiJson(value) {
    return canonicalJson(value).replace(/[\u0080-\uffff]/g, function (c) {
      return "\\u" + ("0000" + c.charCodeAt(0).toString(16)).slice(-4);
    });
  }

  function sha256Hex(text) {
    var bytes = new TextEncoder().encode(text);
    return global.crypto.subtle.digest("SHA-256", bytes).then(function (buf) {
      return Array.prototype.map.call(new Uint8Array(buf), function (b) {
        return ("0" + b.toString(16)).slice(-2);
      }).join("");
    });
  }

  function commitment(deck, salt) {
    return sha256Hex(asciiJson({ deck: deck, salt: salt }));
  }

  function eventHash(streamId, e, prev) {
    return sha256Hex(canonicalJson({
      stream_id: streamId, version: e.version, type: e.type,
      schema_version: e.schema_version, data: e.data, metadata: e.metadata,
      recorded_at: e.recorded_at, prev: prev
    }));
  }

  // Resolves to {ok, checked, failedAt, reason} for the events carrying a hash, in order
  // from version 1 (the chain starts from the empty string).
  function checkChain(streamId, events) {
    var prev = "", checked = 0, i = 0;
    function step() {
      if (i >= events.length || !events[i].hash) {
        return Promise.resolve({ ok: true, checked: checked });
      }
      var e = events[i];
      return eventHash(streamId, e, prev).then(function (h) {
        if (h !== e.hash) {
          return { ok: false, checked: checked, failedAt: e.version,
                   reason: "event " + e.version + " (" + e.type + "): recomputed hash differs from the stored one" };
        }
        prev = h; checked += 1; i += 1;
        return step();
      });
    }
    return step();
  }

  global.Audit = { canonicalJson: canonicalJson, sha256Hex: sha256Hex, commitment: commitment,
                   eventHash: eventHash, checkChain: checkChain };
})(window);
