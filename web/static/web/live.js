// Live pages: reload when the stream named by this script's data-stream attribute
// (server-sent events, /api/.../stream/?after=<the version the page shows>) reports a new
// event. A batch of events reloads once. The page's own timed refresh stays as the
// fallback without JavaScript or a stream.
(function () {
  var script = document.currentScript;
  if (!window.EventSource || !script || !script.dataset.stream) return;
  var source = new EventSource(script.dataset.stream);
  var pending = null;
  source.addEventListener("event", function () {
    if (pending === null) {
      pending = window.setTimeout(function () { window.location.reload(); }, 300);
    }
  });
})();
