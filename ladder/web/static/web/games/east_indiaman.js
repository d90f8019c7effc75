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
