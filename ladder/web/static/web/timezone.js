// The tournament form's time zone: when the organiser has not chosen one yet, start from the
// browser's own zone (the server cannot know it).  Without JavaScript the menu stays at UTC.
(function () {
  "use strict";
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone) return;
  document.querySelectorAll("select[data-browser-zone]").forEach(function (menu) {
    for (var i = 0; i < menu.options.length; i++) {
      if (menu.options[i].value === zone) {
        menu.value = zone;
        return;
      }
    }
  });
})();
