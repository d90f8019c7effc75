// Times in the visitor's own zone: the server writes each <time class="local"> in a zone it can
// know (the one chosen on a tournament form, else the organiser's) and names it in the
// .zone-name spans; here the browser rewrites them in its own zone and names that instead.
// Without JavaScript the server's rendering stays, with its zone named, so it is never wrong.
(function () {
  "use strict";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone) return;
  var long = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone, day: "numeric", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit", hourCycle: "h23",
  });
  var short = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone, day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
    hourCycle: "h23",
  });

  function apply(root) {
    root.querySelectorAll("time.local[datetime]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when.getTime())) return;
      var format = el.getAttribute("data-format") === "short" ? short : long;
      el.textContent = format.format(when).replace(",", "");
    });
    root.querySelectorAll(".zone-name").forEach(function (el) {
      el.textContent = zone;
      el.setAttribute("data-zone", zone);
    });
  }

  apply(document);
  window.monsoonLocalTimes = apply; // for the live refresh of the tournament page
})();
