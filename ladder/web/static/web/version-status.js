// The bot page while a version awaits validation: poll the bot's status endpoint and update the
// version's status (and, for the owner, the rejection reason) in place once a worker is done.
// Without JavaScript a <noscript> meta refresh reloads the page instead.
(function () {
  "use strict";
  var script = document.currentScript;
  var url = script && script.getAttribute("data-status-url");
  if (!url) return;
  var PERIOD_MS = 5000;
  var WAITING = { pending: true, validating: true };
  var note = document.getElementById("version-status-note");

  function apply(version) {
    var changed = false;
    document.querySelectorAll('[data-version="' + version.number + '"]').forEach(function (el) {
      if (el.textContent !== version.label) {
        el.textContent = version.label;
        el.className = "status status-" + version.status;
        changed = true;
      }
    });
    var cell = document.querySelector('[data-reason-cell="' + version.number + '"]');
    if (cell && version.failure_reason) {
      var pre = document.createElement("pre");
      pre.className = "reason";
      pre.textContent = version.failure_reason;
      cell.replaceChildren(pre);
    }
    return changed;
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
          if (apply(version) && !WAITING[version.status]) {
            done.push("Version " + version.number + " is now " + version.label + ".");
          }
        });
        if (done.length && note) {
          note.textContent = done.join(" ");
          note.classList.remove("visually-hidden");
          note.classList.add("message");
        }
        var pending = document.getElementById("pending-note");
        if (!data.pending && pending) pending.remove();
        if (data.pending) window.setTimeout(poll, PERIOD_MS);
      })
      .catch(function () {
        window.setTimeout(poll, PERIOD_MS * 3);
      });
  }

  window.setTimeout(poll, PERIOD_MS);
})();
