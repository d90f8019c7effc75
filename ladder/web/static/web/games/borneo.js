/* Borneo: the four company columns with the merchants' seats, the open harbours and their
 * card piles, the cards being distributed, missions, and each player's warehouse. */
(window.MonsoonGames = window.MonsoonGames || {}).borneo = function (view, ctx, u) {
  "use strict";
  var h = u.h;
  var cards = (ctx.catalogue && ctx.catalogue.cards) || {};
  function co(name, long) {
    return h("span", { "class": "co co-" + name, title: name }, long ? name : name.charAt(0).toUpperCase());
  }
  function card(id, cls) {
    var c = cards[String(id)];
    if (!c) { return u.card("#" + id, cls); }
    return u.card([c.top.map(function (x) { return co(x); }), " / ", co(c.bottom), " " + c.spice + (c.count > 1 ? " ×" + c.count : "")], cls);
  }
  function cardList(ids, cls) {
    return ids && ids.length ? h("div", { "class": "cards" }, ids.map(function (id) { return card(id, cls); })) : "–";
  }
  var out = [u.facts([
    ["Phase", view.phase],
    ["To move", view.current_player === null ? "nobody (game over)" : u.seat(view.current_player)],
    ["Turn of", u.seat(view.turn_player)], ["Deck", view.deck_size + " cards"],
    ["Harbour deck", view.harbor_deck_size], ["Pirate ship", u.seat(view.pirate_ship)]
  ])];
  var companies = Object.keys(view.companies);
  /* The drawn board first: on a phone it is what shows under the step's sentence. */
  out.unshift(h("h3", { "class": "visually-hidden" }, "The board"), drawBoard());

  /* The four companies' five merchant places (rank 1, the captain, on top) and the three open
   * harbours with their flag counts against the monopoly mark; changes ringed in gold. */
  function drawBoard() {
    var colours = { yellow: "#8a6d00", red: "#b3261e", green: "#1a6b32", blue: "#1d4fa3" };
    var W = 360, parts = [], colW = 88;
    companies.forEach(function (c, i) {
      var x = 4 + i * colW, hot = u.changed(ctx, view, ["companies", c]);
      parts.push(u.svg("rect", { x: x, y: 4, width: colW - 6, height: 196, rx: 6, fill: "#fff",
        stroke: hot ? "#f0b400" : colours[c], "stroke-width": hot ? 4 : 2 }));
      parts.push(u.svg("rect", { x: x, y: 4, width: colW - 6, height: 20, rx: 6, fill: colours[c] }));
      parts.push(u.svg("text", { x: x + (colW - 6) / 2, y: 18, "text-anchor": "middle", "font-size": 12, "font-weight": 700, fill: "#fff" }, c));
      for (var r = 0; r < 5; r++) {
        var cy = 44 + r * 34, who = view.companies[c][r];
        parts.push(u.svg("text", { x: x + 6, y: cy + 4, "font-size": 10, fill: "#4a5563" }, String(r + 1)));
        if (who === undefined) {
          parts.push(u.svg("circle", { cx: x + 48, cy: cy, r: 12, fill: "#f3f5f7", stroke: "#9aa5b1", "stroke-dasharray": "3 2" }));
        } else {
          parts.push(u.token(x + 48, cy, who, 12, false));
        }
      }
    });
    var y = 212;
    view.harbors.forEach(function (hb, slot) {
      var by = y + slot * 78;
      var hot = u.changed(ctx, view, ["harbors", slot]);
      parts.push(u.svg("rect", { x: 4, y: by, width: W - 8, height: 72, rx: 6, fill: "#fff",
        stroke: hot ? "#f0b400" : "#9aa5b1", "stroke-width": hot ? 4 : 1 }));
      if (!hb) {
        parts.push(u.svg("text", { x: 14, y: by + 36, "font-size": 13, fill: "#4a5563" }, "harbour " + slot + ": closed"));
        return;
      }
      parts.push(u.svg("text", { x: 12, y: by + 19, "font-size": 14, "font-weight": 700, fill: "#1b1f24" },
        hb.name + " · " + hb.spice));
      parts.push(u.svg("text", { x: W - 12, y: by + 19, "font-size": 12.5, "text-anchor": "end", fill: "#4a5563" },
        hb.cards.length + "/" + hb.card_limit + " cards, monopoly " + hb.monopoly));
      companies.forEach(function (c, i) {
        var n = hb.flags[c] || 0, bx = 12 + i * 86, unit = Math.min(7, 70 / Math.max(hb.monopoly, 1));
        parts.push(u.svg("rect", { x: bx, y: by + 30, width: unit * hb.monopoly, height: 14, fill: "#f3f5f7", stroke: "#c9d1d9" }));
        parts.push(u.svg("rect", { x: bx, y: by + 30, width: unit * Math.min(n, hb.monopoly), height: 14, fill: colours[c] }));
        parts.push(u.svg("text", { x: bx, y: by + 63, "font-size": 13, fill: colours[c], "font-weight": 700 }, c + " " + n));
      });
    });
    y += view.harbors.length * 78;
    return u.board(W, y, "Borneo board: merchants in the four companies and the three open harbours", parts);
  }
  out.push(u.table("Companies (merchants, first is the captain)", ["Company", "Merchants"],
    companies.map(function (c) { return [co(c, true), view.companies[c].length ? view.companies[c].map(u.seat) : "–"]; })));
  out.push(u.table("Open harbours", ["Slot", "Harbour", "Spice", "Monopoly / limit", "Cards", "Flags"],
    view.harbors.map(function (hb, slot) {
      if (!hb) { return [String(slot), "closed", "", "", "", ""]; }
      return [String(slot), hb.name, hb.spice, hb.monopoly + " / " + hb.card_limit, cardList(hb.cards),
        companies.map(function (c) { return hb.flags[c] ? [co(c), " " + hb.flags[c] + " "] : null; })];
    })));
  var d = view.distribution;
  if (d) {
    out.push(h("h3", null, "Distributing harbour " + d.slot + " (" + d.kind + (d.company ? ", " + d.company : "") + ")"),
      cardList(d.cards), h("p", null, "Still to pick: ", d.pickers.map(u.seat)));
  }
  if (view.fight) {
    var f = view.fight;
    out.push(h("h3", null, "Fight for " + f.company),
      h("p", null, "Attacker ", u.seat(f.attacker), " (rank " + f.attacker_rank + ") against ", u.seat(f.defender),
        " (rank " + f.defender_rank + ")", f.winner !== null && f.winner !== undefined ? [": winner ", u.seat(f.winner)] : ""),
      h("p", null, "Attacker's cards: ", cardList(f.attacker_cards), " Defender's cards: ", cardList(f.defender_cards)));
  }
  if (view.payment) {
    out.push(h("h3", null, "Paying for mission " + view.payment.mission),
      h("p", null, "Still needed: " + Object.keys(view.payment.still_needed).map(function (k) { return k + " " + view.payment.still_needed[k]; }).join(", ")));
  }
  out.push(h("p", null, h("strong", null, "Missions on the board: "),
    Object.keys(view.missions_on_board).map(function (k) { return k.replace(/_/g, " ") + " ×" + view.missions_on_board[k]; }).join(", ") || "none"));
  var hand = ctx.privatePart && ctx.privatePart.hand;
  out.push(u.table("Players", ["Seat", "Hand", "Warehouse cards", "Harbours", "Missions", "Score"],
    view.players.map(function (p, s) {
      var final = view.final ? view.final[s] : null;
      return { attrs: view.current_player === s ? { "class": "to-move" } : null, cells: [
        [u.seat(s), " " + ctx.seats[s], p.pirate_ship ? " ☠" : ""],
        ctx.viewAs === s && hand ? u.hand(s, hand.map(function (id) { return card(id, "hand"); }), hand.length) : p.hand_size + " cards",
        cardList(p.warehouse_cards), p.warehouse_harbors.join(", ") || "–",
        p.missions.length ? p.missions.join(", ").replace(/_/g, " ") + " (" + p.mission_points + ")" : "–",
        final ? h("strong", null, String(final.total)) : "–"] };
    })));
  if (view.final) {
    out.push(u.table("Final scoring", ["Seat", "Shipment cards", "Harbours", "Missions", "Pirate ship", "Total"],
      view.final.map(function (f, s) { return [u.seat(s), f.shipment_cards, f.harbors, f.missions, f.pirate_ship, h("strong", null, String(f.total))]; })));
  }
  return h("div", { "class": "game borneo" }, out);
};
