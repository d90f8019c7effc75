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
  out.push(h("h3", null, "Boards"), h("div", { "class": "boards" }, Object.keys(view.boards).map(function (name) {
    var b = view.boards[name];
    return h("section", { "class": "board" + (view.area === name ? " active-area" : ""), "aria-label": name + " board" },
      h("h4", null, name, b.chosen ? " (chosen)" : ""),
      h("div", null, h("strong", null, "Current: "), slots(name, "current", b.current)),
      h("div", null, h("strong", null, "Future: "), slots(name, "future", b.future)),
      h("div", { "class": "muted" }, "Deck " + b.deck_size + ", discards " + b.discards.length +
        (b.not_properly_refilled ? ", not properly refilled" : "")));
  })));
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
