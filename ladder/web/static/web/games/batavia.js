/* Batavia: the 35 trading-post hexes in blocks of five, the auction package, warehouses,
 * seals and each player's laid cards, counters, gold and notes. */
(window.MonsoonGames = window.MonsoonGames || {}).batavia = function (view, ctx, u) {
  "use strict";
  var h = u.h;
  var companies = ["GB", "DK", "FR", "NL", "SE"];
  function co(name) { return h("span", { "class": "co co-" + name }, name); }
  function byCompany(counts, cls) {
    return h("span", { "class": "cards" }, companies.filter(function (c) { return counts && counts[c]; })
      .map(function (c) { return h("span", { "class": "card" + (cls ? " " + cls : "") }, co(c), " ×" + counts[c]); }));
  }
  var auction = view.auction;
  var out = [u.facts([
    ["Round", view.round], ["Phase", view.phase],
    ["To move", view.current_player === null ? "nobody (game over)" : u.seat(view.current_player)],
    ["Auctioneer", u.seat(view.auctioneer)], ["Die", view.die],
    ["Deck", view.deck_size + " cards"], ["Cannon", view.laid_total + " / " + view.pirate_threshold],
    ["Target", view.target + (view.target_holder !== null ? " (held by seat " + view.target_holder + ")" : "")]
  ])];
  out.push(h("h3", null, "Package on offer"), byCompany(view.package),
    auction ? h("p", null, "High bid ", h("strong", null, String(auction.high_bid || 0)),
      auction.high_bidder !== null ? [" by ", u.seat(auction.high_bidder)] : "",
      "; passed: ", auction.passed.some(Boolean)
        ? auction.passed.map(function (p, i) { return p ? u.seat(i) : null; }) : "nobody") : null);

  var cells = view.board.map(function (hex, i) {
    if (hex === "hidden") { return h("div", { "class": "cell hidden", title: "hex " + i + ": face down" }, "?"); }
    if (hex === null) { return h("div", { "class": "cell empty", title: "hex " + i + ": empty" }, "·"); }
    return h("div", { "class": "cell", title: "hex " + i }, co(hex[0]), h("br"), hex[1]);
  });
  out.push(h("h3", null, "Trading posts (blocks of five)"),
    h("div", { "class": "grid-board", style: "grid-template-columns: repeat(5, minmax(3.2rem, 1fr)); max-width: 24rem" }, cells));

  var commodities = Object.keys(view.warehouses);
  out.push(u.table("Warehouses (seat with a crate)", ["Commodity"].concat(companies.map(co)),
    commodities.map(function (name) {
      return [name].concat(companies.map(function (c) { return u.seat(view.warehouses[name][c]); }));
    })));

  var hand = ctx.privatePart && ctx.privatePart.hand;
  out.push(u.table("Players", ["Seat", "Hand", "Laid", "Seals", "Position", "Counters", "Gold", "Notes", "Crates", "Score"],
    view.players.map(function (p, s) {
      var final = view.final ? view.final[s] : null;
      return { attrs: view.current_player === s ? { "class": "to-move" } : null, cells: [
        [u.seat(s), " " + ctx.seats[s]],
        ctx.viewAs === s && hand ? u.hand(s, byCompany(hand, "hand"), p.hand_size) : p.hand_size + " cards",
        byCompany(p.laid), p.seals.map(co), p.position, byCompany(p.counters), p.gold, p.notes,
        p.crates_left, final ? h("strong", null, String(final.total)) : "–"] };
    })));
  if (view.final) {
    out.push(u.table("Final scoring", ["Seat", "Exchanges", "Warehouses", "Notes", "Target", "Seals", "Total"],
      view.final.map(function (f, s) { return [u.seat(s), f.exchanges, f.warehouses, f.notes, f.target, f.seals, h("strong", null, String(f.total))]; })));
  }
  return h("div", { "class": "game batavia" }, out);
};
