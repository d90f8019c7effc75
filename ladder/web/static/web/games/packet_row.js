/* Packet Row: the four boards (current and future supply, deck, chosen), the players'
 * pieces, money, ships and known cards, and a fulfilment in progress. */
(window.MonsoonGames = window.MonsoonGames || {}).packet_row = function (view, ctx, u) {
  "use strict";
  var h = u.h;
  function label(card) {
    if (card === null) { return h("span", { "class": "card empty" }, "empty"); }
    var parts = card.split(":");
    var kind = parts[0];
    var text = {
      contract: function () { return "contract: " + parts[3] + " " + parts[1] + " → " + parts[2] + ", reward " + parts[4]; },
      goods: function () { return parts[2] + " " + parts[1] + " (cost " + parts[3] + ")"; },
      vp: function () { return parts[2] + " VP (cost " + parts[1] + ")"; },
      gold: function () { return parts[1] + " gold (cost " + parts[2] + ")"; },
      money: function () { return "money " + parts[1]; },
      ship: function () { return "ship " + parts[1]; }
    }[kind];
    return text ? text() : card;
  }
  function cards(list, cls) {
    return list && list.length ? h("div", { "class": "cards" }, list.map(function (c) { return u.card(label(c), cls); })) : "–";
  }
  var out = [u.facts([
    ["Round", view.round], ["Phase", view.phase],
    ["To move", view.current_player === null ? "nobody (game over)" : u.seat(view.current_player)],
    ["Harbour master", u.seat(view.harbour_master)], ["Area", view.area || "–"],
    ["Bank supply", view.supply_money], view.game_ending ? ["Ending", "last round"] : null
  ])];
  var pieces = {};
  view.players.forEach(function (p, s) {
    if (p.piece) { pieces[p.piece.board + ":" + p.piece.supply + ":" + p.piece.slot] = s; }
  });
  function slots(board, supply, row) {
    return h("div", { "class": "cards" }, row.map(function (c, slot) {
      var who = pieces[board + ":" + supply + ":" + slot];
      return h("span", null, u.card(label(c)), who !== undefined ? u.seat(who) : null);
    }));
  }
  /* The drawn boards first: on a phone they are what shows under the step's sentence. */
  out.unshift(h("h3", { "class": "visually-hidden" }, "Boards"), drawBoards());

  /* The four boards, each with its current supply (top row) and future supply, the players'
   * pieces on the cards they placed on, and the deck; changed cards are ringed in gold. */
  function cardLines(card) {
    if (card === null) { return ["empty", ""]; }
    var p = card.split(":");
    switch (p[0]) {
      case "contract": return ["contract $" + p[4], p[3] + " " + p[1] + " → " + p[2]];
      case "goods": return [p[2] + " " + p[1], "$" + p[3]];
      case "vp": return [p[2] + " VP", "$" + p[1]];
      case "gold": return [p[1] + " gold", "$" + p[2]];
      case "money": return ["money", "$" + p[1]];
      case "ship": return ["ship", "→ " + p[1]];
      default: return [p[0], ""];
    }
  }
  function drawBoards() {
    var colours = { guildhall: "#6b3fa0", docks: "#1d4fa3", market: "#a34a00", bank: "#1a6b32" };
    var W = 360, ch = 40, parts = [], y = 4;
    var most = Math.max.apply(null, Object.keys(view.boards).map(function (n) {
      return Math.max(view.boards[n].current.length, view.boards[n].future.length);
    }));
    var cw = Math.min(92, Math.floor((W - 56) / Math.max(most, 1)) - 4);
    var fs = cw >= 84 ? 12 : 10.5;
    Object.keys(view.boards).forEach(function (name) {
      var b = view.boards[name], chosen = view.area === name;
      var rows = [["current", b.current], ["future", b.future]];
      var height = 24 + rows.length * (ch + 8);
      parts.push(u.svg("rect", { x: 2, y: y, width: W - 4, height: height, rx: 6, fill: chosen ? "#eef4fb" : "#fff",
        stroke: colours[name] || "#9aa5b1", "stroke-width": chosen ? 3 : 1.5 }));
      parts.push(u.svg("text", { x: 10, y: y + 16, "font-size": 13, "font-weight": 700, fill: colours[name] || "#1b1f24" },
        name + (b.chosen ? " (chosen)" : "")));
      parts.push(u.svg("text", { x: W - 10, y: y + 16, "font-size": 11, "text-anchor": "end", fill: "#4a5563" },
        "deck " + b.deck_size + (b.not_properly_refilled ? " · short" : "")));
      rows.forEach(function (row, r) {
        var ry = y + 22 + r * (ch + 8);
        parts.push(u.svg("text", { x: 8, y: ry + 25, "font-size": 10.5, fill: "#4a5563" }, row[0] === "current" ? "now" : "next"));
        row[1].forEach(function (card, slot) {
          var x = 50 + slot * (cw + 4), lines = cardLines(card);
          var hot = u.changed(ctx, view, ["boards", name, row[0], slot]);
          parts.push(u.svg("rect", { x: x, y: ry, width: cw, height: ch, rx: 4, fill: card === null ? "#f3f5f7" : "#fff",
            stroke: hot ? "#f0b400" : "#6b7684", "stroke-width": hot ? 4 : 1, "stroke-dasharray": card === null ? "4 3" : null }));
          parts.push(u.svg("text", { x: x + cw / 2, y: ry + 16, "text-anchor": "middle", "font-size": fs, "font-weight": 700, fill: "#1b1f24" }, lines[0]));
          parts.push(u.svg("text", { x: x + cw / 2, y: ry + 32, "text-anchor": "middle", "font-size": fs, fill: "#1b1f24" }, lines[1]));
          var who = pieces[name + ":" + row[0] + ":" + slot];
          if (who !== undefined) { parts.push(u.token(x + cw - 6, ry + 4, who, 9, u.changed(ctx, view, ["players", who, "piece"]))); }
        });
      });
      y += height + 6;
    });
    return u.board(W, y, "Packet Row boards: current and future supply of each board, with the players' pieces", parts);
  }
  if (view.fulfilment) {
    var f = view.fulfilment;
    out.push(h("h3", null, "Fulfilment (reward " + f.reward + ")"), cards(f.contracts),
      h("p", null, "Ships: ", f.ships.map(function (s) { return u.card(label(s.ship) + " → " + s.destination + (s.captain ? " + captain" : "")); })),
      h("p", null, "Goods: ", f.goods.map(function (g) { return u.card(label(g.card) + " as " + g.as + (g.trader ? " + trader" : "")); })));
  }
  var hand = ctx.privatePart && ctx.privatePart.hand;
  out.push(u.table("Players", ["Seat", "Money", "Ships", "Hand", "Score"],
    view.players.map(function (p, s) {
      var final = view.final ? view.final[s] : null;
      var handCell = ctx.viewAs === s && hand ? u.hand(s, hand.map(function (c) { return u.card(label(c), "hand"); }), hand.length)
        : [p.hand_size + " cards" + (p.hidden_cards ? " (" + p.hidden_cards + " hidden)" : "") + ": ", cards(p.known_hand)];
      return { attrs: view.current_player === s ? { "class": "to-move" } : null, cells: [
        [u.seat(s), " " + ctx.seats[s], s === view.harbour_master ? " ⚓" : ""],
        p.money, cards(p.ships), handCell,
        final ? h("strong", null, String(final.total !== undefined ? final.total : JSON.stringify(final))) : "–"] };
    })));
  if (view.final) {
    var keys = Object.keys(view.final[0] || {});
    out.push(u.table("Final scoring", ["Seat"].concat(keys.map(function (k) { return k.replace(/_/g, " "); })),
      view.final.map(function (f, s) { return [u.seat(s)].concat(keys.map(function (k) { return String(f[k]); })); })));
  }
  return h("div", { "class": "game packet-row" }, out);
};
