/* Worked examples on the rules pages: each figure.rule-example carries the position the engine
 * computed (script.rule-example-data, see ladder/web/examples.py); it is drawn by the game's own
 * replay drawing (window.MonsoonGames[game]) with the replay viewer's helpers, seen as the
 * player to move so that player's hand shows. */
(function () {
  "use strict";
  var makeHelpers = window.MonsoonViewerHelpers;
  document.querySelectorAll("figure.rule-example").forEach(function (figure) {
    var node = figure.querySelector("script.rule-example-data");
    var target = figure.querySelector(".rule-example-board");
    if (!node || !target || !makeHelpers) { return; }
    var data = JSON.parse(node.textContent);
    var draw = (window.MonsoonGames || {})[data.game];
    var u = makeHelpers(data);
    var ctx = {
      seats: data.seats, viewAs: data.view_as, privatePart: data.private,
      catalogue: data.catalogue || {}, decision: null, previous: null, over: false
    };
    var picture;
    try {
      picture = draw ? draw(data.view, ctx, u) : u.h("pre", null, JSON.stringify(data.view, null, 1));
    } catch (err) {
      picture = u.h("p", { "class": "notice" }, "This position could not be drawn: " + err.message);
    }
    target.replaceChildren(picture);
  });
})();
