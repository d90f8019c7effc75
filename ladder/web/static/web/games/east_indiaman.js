/* East Indiaman: cargo prices, the four coastal areas' trade-post spots, the pirate alert
 * track, the order display and each player's ships, holds, investment levels and arms. */
(window.MonsoonGames = window.MonsoonGames || {}).east_indiaman = function (view, ctx, u) {
  "use strict";
  var h = u.h;
  var orders = (ctx.catalogue && ctx.catalogue.orders) || [];
  var cargoes = Object.keys(view.prices);
  var trade = Object.keys(view.areas);
  function order(id) {
    var c = orders[id];
    if (!c) { return u.card("order " + id); }
    var needs = Object.keys(c.req).map(function (k) { return c.req[k] + " " + k; }).join(", ");
    return u.card(["#" + id + " ", h("strong", null, c.colours.join("/")), ": " + needs,
      c.icons.length ? " ⚔ " + c.icons.join(", ") : ""]);
  }
  function counts(obj) {
    return Object.keys(obj).filter(function (k) { return obj[k]; })
      .map(function (k) { return k + " " + obj[k]; }).join(", ") || "–";
  }
  var out = [u.facts([
    ["Round", view.round + " of 5"], ["Phase", view.phase],
    ["To move", view.current_player === null ? "nobody (game over)" : u.seat(view.current_player)],
    ["First player", u.seat(view.first_player)], ["Actions this turn", view.actions_done],
    ["Raised", view.raised || "–"], ["Order deck", view.deck_size + " cards"]
  ])];
  /* The drawn board first: on a phone it is what shows under the step's sentence. */
  out.unshift(h("h3", { "class": "visually-hidden" }, "The board"), drawBoard());

  /* Price tracks (1 to 5), the four coastal areas' trade-post spots and the pirate alert
   * track; a price, spot or alert space the step changed is ringed in gold. */
  function drawBoard() {
    var colours = { spice: "#a34a00", silk: "#6b3fa0", tea: "#1a6b32", china: "#1d4fa3", opium: "#4a5563" };
    var W = 360, parts = [], y = 6;
    parts.push(u.svg("text", { x: 4, y: y + 12, "font-size": 13, "font-weight": 700, fill: "#1b1f24" }, "Prices"));
    y += 20;
    cargoes.forEach(function (c) {
      var hot = u.changed(ctx, view, ["prices", c]);
      parts.push(u.svg("text", { x: 4, y: y + 14, "font-size": 12, fill: "#1b1f24" }, c));
      for (var v = 1; v <= 5; v++) {
        var x = 70 + (v - 1) * 56, here = view.prices[c] === v;
        parts.push(u.svg("rect", { x: x, y: y, width: 50, height: 20, rx: 4,
          fill: here ? colours[c] : "#f3f5f7", stroke: here && hot ? "#f0b400" : "#c9d1d9", "stroke-width": here && hot ? 4 : 1 }));
        parts.push(u.svg("text", { x: x + 25, y: y + 15, "text-anchor": "middle", "font-size": 12,
          "font-weight": here ? 700 : 400, fill: here ? "#fff" : "#4a5563" }, String(v)));
      }
      y += 26;
    });
    y += 8;
    parts.push(u.svg("text", { x: 4, y: y + 12, "font-size": 13, "font-weight": 700, fill: "#1b1f24" }, "Coastal areas: trade posts"));
    y += 20;
    trade.forEach(function (area, i) {
      var bx = 4 + (i % 2) * 178, by = y + Math.floor(i / 2) * 74;
      parts.push(u.svg("rect", { x: bx, y: by, width: 172, height: 68, rx: 6, fill: "#fff", stroke: colours[area], "stroke-width": 2 }));
      parts.push(u.svg("text", { x: bx + 8, y: by + 17, "font-size": 13, "font-weight": 700, fill: colours[area] }, area + " coast"));
      view.areas[area].forEach(function (owner, k) {
        var cx = bx + 20 + k * 27, cy = by + 45, hot = u.changed(ctx, view, ["areas", area, k]);
        if (owner === null) {
          parts.push(u.svg("circle", { cx: cx, cy: cy, r: 10, fill: "#f3f5f7", stroke: "#9aa5b1", "stroke-dasharray": "3 2" }));
        } else {
          parts.push(u.token(cx, cy, owner, 10, hot));
        }
      });
    });
    y += 2 * 74 + 8;
    parts.push(u.svg("text", { x: 4, y: y + 12, "font-size": 13, "font-weight": 700, fill: "#1b1f24" }, "Pirate alert track"));
    y += 20;
    view.alert.forEach(function (space, i) {
      var x = 4 + i * 71, hot = u.changed(ctx, view, ["alert", i]);
      parts.push(u.svg("rect", { x: x, y: y, width: 66, height: 56, rx: 6, fill: "#fff",
        stroke: hot ? "#f0b400" : "#c9d1d9", "stroke-width": hot ? 4 : 1 }));
      parts.push(u.svg("text", { x: x + 33, y: y + 16, "text-anchor": "middle", "font-size": 11,
        fill: space.token ? (colours[space.token] || "#1b1f24") : "#4a5563" }, space.token || "taken"));
      space.ships.forEach(function (s, k) { parts.push(u.token(x + 12 + (k % 3) * 21, y + 36, s, 8, false)); });
    });
    y += 62;
    return u.board(W, y, "East Indiaman board: cargo prices, trade posts on the four coasts, pirate alert track", parts);
  }

  out.push(u.table("Prices", ["Cargo"].concat(cargoes), [["price"].concat(cargoes.map(function (c) {
    return h("strong", null, String(view.prices[c]));
  }))]));
  out.push(u.table("Coastal trade-post spots (owner per spot)", ["Area", "1", "2", "3", "4", "5", "6"],
    trade.map(function (area) {
      return [area].concat(view.areas[area].map(function (owner) { return owner === null ? "·" : u.seat(owner); }));
    })));
  out.push(u.table("Pirate alert track", ["Space"].concat(view.alert.map(function (_, i) { return String(i + 1); })),
    [["raid token"].concat(view.alert.map(function (a) { return a.token || "–"; })),
     ["ships"].concat(view.alert.map(function (a) { return a.ships.length ? a.ships.map(u.seat) : "–"; }))]));
  out.push(h("h3", null, "Orders on display"),
    h("div", { "class": "cards" }, view.display.length ? view.display.map(order) : h("span", { "class": "empty" }, "none")));
  out.push(u.table("Players", ["Seat", "Reserve / supply", "Hold", "Harbour", "Levels", "Arms", "Posts", "Orders done", "Raid", "Score"],
    view.players.map(function (p, s) {
      var final = view.final ? view.final[s] : null;
      return { attrs: view.current_player === s ? { "class": "to-move" } : null, cells: [
        [u.seat(s), " " + ctx.seats[s], p.passed ? " (passed)" : ""],
        p.reserve + " / " + p.supply, counts(p.hold), counts(p.harbor), counts(p.levels), p.arms,
        counts(p.posts), p.completed.length ? h("div", { "class": "cards" }, p.completed.map(order)) : "–",
        p.raid || "–", final ? h("strong", null, String(final.total)) : "–"] };
    })));
  if (view.final) {
    out.push(u.table("Final scoring", ["Seat", "Orders", "Influence", "Arms", "Total"],
      view.final.map(function (f, s) { return [u.seat(s), f.orders, f.influence, f.arms, h("strong", null, String(f.total))]; })));
  }
  return h("div", { "class": "game east-indiaman" }, out);
};
