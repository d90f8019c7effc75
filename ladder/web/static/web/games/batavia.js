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
  /* The drawn route first: on a phone it is what shows under the step's sentence. */
  var out = [h("h3", { "class": "visually-hidden" }, "The route to Batavia"), route()];
  out.push(u.facts([
    ["Round", view.round], ["Phase", view.phase],
    ["To move", view.current_player === null ? "nobody (game over)" : u.seat(view.current_player)],
    ["Auctioneer", u.seat(view.auctioneer)], ["Die", view.die],
    ["Deck", view.deck_size + " cards"], ["Cannon", view.laid_total + " / " + view.pirate_threshold],
    ["Target", view.target + (view.target_holder !== null ? " (held by seat " + view.target_holder + ")" : "")]
  ]));
  out.push(h("h3", null, "Package on offer"), byCompany(view.package),
    auction ? h("p", null, "High bid ", h("strong", null, String(auction.high_bid || 0)),
      auction.high_bidder !== null ? [" by ", u.seat(auction.high_bidder)] : "",
      "; passed: ", auction.passed.some(Boolean)
        ? auction.passed.map(function (p, i) { return p ? u.seat(i) : null; }) : "nobody") : null);


  /* The 35 trading posts in blocks of five, drawn as a winding route from Europe to Batavia,
   * with each player's ship; what the step changed is ringed in gold. */
  function route() {
    var colours = { GB: "#b3261e", DK: "#7d1d4f", FR: "#1d4fa3", NL: "#a34a00", SE: "#0f6b8a" };
    var W = 360, cols = 5, pw = 62, ph = 42, gx = 8, gy = 16, top = 44;
    var rows = Math.ceil(view.board.length / cols);
    var H = top + rows * (ph + gy) + 40;
    function spot(i) {
      var r = Math.floor(i / cols), c = i % cols;
      if (r % 2 === 1) { c = cols - 1 - c; }
      return { x: 10 + c * (pw + gx), y: top + r * (ph + gy) };
    }
    var parts = [];
    var line = view.board.map(function (_, i) { var p = spot(i); return (p.x + pw / 2) + "," + (p.y + ph / 2); });
    line.unshift((10 + pw / 2) + ",22");
    var end = spot(view.board.length - 1);
    line.push((end.x + pw / 2) + "," + (H - 20));
    parts.push(u.svg("polyline", { points: line.join(" "), fill: "none", stroke: "#9fb3c8", "stroke-width": 4, "stroke-dasharray": "2 6", "stroke-linecap": "round" }));
    parts.push(u.svg("text", { x: 10, y: 16, "font-size": 13, "font-weight": 700, fill: "#1b1f24" }, "Europe"));
    parts.push(u.svg("text", { x: W - 10, y: H - 8, "font-size": 13, "font-weight": 700, fill: "#1b1f24", "text-anchor": "end" },
      "Batavia (Target Counter" + (view.target_holder !== null ? ": seat " + view.target_holder : "") + ")"));
    view.board.forEach(function (post, i) {
      var p = spot(i), hot = u.changed(ctx, view, ["board", i]);
      var g = [];
      if (post === "hidden") {
        g.push(u.svg("rect", { x: p.x, y: p.y, width: pw, height: ph, rx: 6, fill: "#dfe4ea", stroke: "#9aa5b1" }),
          u.svg("text", { x: p.x + pw / 2, y: p.y + 27, "text-anchor": "middle", "font-size": 16, fill: "#4a5563" }, "?"));
      } else if (post === null) {
        g.push(u.svg("rect", { x: p.x, y: p.y, width: pw, height: ph, rx: 6, fill: "#fff", stroke: "#9aa5b1", "stroke-dasharray": "4 3" }),
          u.svg("text", { x: p.x + pw / 2, y: p.y + 26, "text-anchor": "middle", "font-size": 11, fill: "#4a5563" }, "taken"));
      } else {
        g.push(u.svg("rect", { x: p.x, y: p.y, width: pw, height: ph, rx: 6, fill: "#fff", stroke: colours[post[0]], "stroke-width": 2 }),
          u.svg("rect", { x: p.x, y: p.y, width: pw, height: 16, rx: 6, fill: colours[post[0]] }),
          u.svg("text", { x: p.x + pw / 2, y: p.y + 12, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#fff" }, post[0]),
          u.svg("text", { x: p.x + pw / 2, y: p.y + 33, "text-anchor": "middle", "font-size": 12, fill: "#1b1f24" }, post[1]));
      }
      if (hot) { g.push(u.svg("rect", { x: p.x - 2, y: p.y - 2, width: pw + 4, height: ph + 4, rx: 8, fill: "none", stroke: "#f0b400", "stroke-width": 4 })); }
      g.push(u.svg("text", { x: p.x + 3, y: p.y + ph - 3, "font-size": 9, fill: "#4a5563" }, String(i + 1)));
      parts.push(u.svg("g", null, g, u.svg("title", null, "trading post " + (i + 1) + ": " +
        (post === "hidden" ? "face down" : post === null ? "counter taken" : post[0] + " " + post[1]))));
    });
    var atStart = 0;
    view.players.forEach(function (pl, s) {
      var hot = u.changed(ctx, view, ["players", s, "position"]);
      if (pl.position < 0) {
        parts.push(u.token(76 + atStart * 24, 17, s, 10, hot)); atStart += 1;
      } else if (pl.position >= view.board.length) {
        parts.push(u.token(W - 24 - s * 24, H - 32, s, 10, hot));
      } else {
        var p = spot(pl.position);
        parts.push(u.token(p.x + pw - 8, p.y + 8, s, 10, hot));
      }
    });
    return u.board(W, H, "The route: 35 trading posts from Europe to Batavia, with each player's ship", parts);
  }

  var commodities = Object.keys(view.warehouses);
  out.push(u.table("Warehouses (seat with a crate)", ["Commodity"].concat(companies.map(co)),
    commodities.map(function (name) {
      return [name].concat(companies.map(function (c) { return u.seat(view.warehouses[name][c]); }));
    })));

  /* A ship's place in words: it starts in Europe (position -1) and ends at Batavia. */
  function where(position) {
    if (position < 0) { return "Europe"; }
    if (position >= view.board.length) { return "Batavia"; }
    return "post " + (position + 1);
  }
  var hand = ctx.privatePart && ctx.privatePart.hand;
  out.push(u.table("Players", ["Seat", "Hand", "Laid", "Seals", "Position", "Counters", "Gold", "Notes", "Crates", "Score"],
    view.players.map(function (p, s) {
      var final = view.final ? view.final[s] : null;
      return { attrs: view.current_player === s ? { "class": "to-move" } : null, cells: [
        [u.seat(s), " " + ctx.seats[s]],
        ctx.viewAs === s && hand ? u.hand(s, byCompany(hand, "hand"), p.hand_size) : p.hand_size + " cards",
        byCompany(p.laid), p.seals.map(co), where(p.position), byCompany(p.counters), p.gold, p.notes,
        p.crates_left, final ? h("strong", null, String(final.total)) : "–"] };
    })));
  if (view.final) {
    out.push(u.table("Final scoring", ["Seat", "Exchanges", "Warehouses", "Notes", "Target", "Seals", "Total"],
      view.final.map(function (f, s) { return [u.seat(s), f.exchanges, f.warehouses, f.notes, f.target, f.seals, h("strong", null, String(f.total))]; })));
  }
  return h("div", { "class": "game batavia" }, out);
};
