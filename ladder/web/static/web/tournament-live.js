// The tournament page while it is not over: fetch the small live fragment every few seconds and
// swap in its parts (progress, entrants, standings, cross-table, rounds) by id.  When the
// tournament's status changes (it started, paused, finished...) the whole page is reloaded once,
// so the headings and the organiser's controls follow.  Without JavaScript a <noscript> meta
// refresh reloads the page instead.
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-live-url");
  if (!url) return;
  var status = script.getAttribute("data-status");
  var period = (parseInt(script.getAttribute("data-seconds"), 10) || 10) * 1000;
  var PARTS = ["live-progress", "live-entrants", "live-standings", "live-crosstable", "live-rounds"];

  // What the server sent last for each part: the page's own copy cannot be compared, since
  // local-time.js rewrites its times.  A part is replaced only when the server's copy changed,
  // so a visitor's focus and selection survive the polls that bring nothing new.
  var last = {};

  function swap(fresh) {
    PARTS.forEach(function (id) {
      var now = document.getElementById(id);
      var then = fresh.getElementById(id);
      if (!now || !then || last[id] === then.innerHTML) return;
      last[id] = then.innerHTML;
      now.innerHTML = then.innerHTML;
      if (window.monsoonLocalTimes) window.monsoonLocalTimes(now);
    });
  }

  function poll() {
    if (document.hidden) {
      window.setTimeout(poll, period);
      return;
    }
    fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var root = fresh.getElementById("tournament-live");
        var now = root ? root.getAttribute("data-status") : status;
        if (now !== status) {
          window.location.reload();
          return;
        }
        swap(fresh);
        document.body.setAttribute("data-live-refreshed", String(Date.now()));
        window.setTimeout(poll, period);
      })
      .catch(function () {
        window.setTimeout(poll, period * 3);
      });
  }

  window.setTimeout(poll, period);
})();
