// The bot page while a version awaits validation or its first matches: poll the bot's status
// endpoint and update the page in place: the status cells at once, then, whenever a version
// settles or the bot's recent matches change, the record (games played, rating, smoke test), the
// versions table and the match list from a fresh copy of the page, and say what changed in a
// role="status" region.  Polling stops once the bot has a finished match and nothing is
// pending.  Without JavaScript a <noscript> meta refresh reloads the page instead.
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-status-url");
  if (!url) return;
  var PERIOD_MS = 5000;
  var WAITING = { pending: true, validating: true };
  var SLOW_MS = 10000; // waiting for matches takes longer than waiting for a validation
  var seen = script.getAttribute("data-matches"); // recent matches (id, status) on the page
  var note = document.getElementById("version-status-note");

  function statusOf(el) {
    var match = /status-(\w+)/.exec(el.className);
    return match ? match[1] : "";
  }

  // Set a version's status everywhere it is shown; true when it left pending/validating.
  function apply(version) {
    var settled = false;
    document.querySelectorAll('[data-version="' + version.number + '"]').forEach(function (el) {
      var before = statusOf(el);
      if (before === version.status) return;
      if (WAITING[before] && !WAITING[version.status]) settled = true;
      el.textContent = version.label;
      el.className = "status status-" + version.status;
    });
    return settled;
  }

  // Swap in the parts of a fresh copy of this page that depend on the version's outcome.
  function refreshParts() {
    return fetch(window.location.pathname, { credentials: "same-origin" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        ["record-body", "versions-table", "recent-matches"].forEach(function (id) {
          var now = document.getElementById(id);
          var then = fresh.getElementById(id);
          if (now && then) now.replaceWith(document.importNode(then, true));
        });
      });
  }

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("status " + response.status);
        return response.json();
      })
      .then(function (data) {
        var done = [];
        data.versions.forEach(function (version) {
          if (apply(version)) done.push("Version " + version.number + " is now " + version.label + ".");
        });
        var matches = JSON.stringify(data.matches || []);
        var changed = seen !== null && matches !== seen;
        seen = matches;
        if (!data.pending) {
          var pending = document.getElementById("pending-note");
          if (pending) pending.remove();
        }
        var next = function () {
          if (data.follow) window.setTimeout(poll, data.pending ? PERIOD_MS : SLOW_MS);
        };
        if (!done.length && !changed) {
          next();
          return;
        }
        if (changed) done.push("New matches are listed below.");
        return refreshParts().then(function () {
          if (note) {
            note.textContent = done.join(" ");
            note.classList.remove("visually-hidden");
            note.classList.add("message");
          }
          next();
        });
      })
      .catch(function () {
        window.setTimeout(poll, PERIOD_MS * 3);
      });
  }

  poll();
})();
