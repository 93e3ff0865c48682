// Live preview only: `invoke livereload` adds this file to the pages it builds; normal and release
// builds never do. It asks the preview server which build it serves and reloads when that changes.
(function () {
  "use strict";
  var STATE_URL = "/__livereload";
  var seen = null;

  function poll() {
    fetch(STATE_URL, { cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        if (!state) { return; }
        if (seen !== null && state.generation !== seen) {
          window.location.reload();
          return;
        }
        seen = state.generation;
      })
      .catch(function () { /* the server restarts or stopped: keep asking */ })
      .then(function () { window.setTimeout(poll, 500); });
  }

  poll();
}());
