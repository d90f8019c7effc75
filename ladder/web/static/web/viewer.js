/* The replay viewer: steps through the frames the server embedded (replay-data) and asks the
 * game's drawing (static/web/games/<game>.js, registered in window.MonsoonGames) to draw each.
 * Frame 0 holds the whole table; later frames hold their decision and [path, value] changes. */
(function () {
  "use strict";
  /* --- small DOM helpers shared with the game drawings ------------------------------------- */
  /* Built per page for its seat names (``data.seats``); also handed to the rules pages' worked
   * examples (examples.js) through window.MonsoonViewerHelpers, so they draw with the same code. */
  function makeHelpers(data) {
    function h(tag, attrs) {
      var node = document.createElement(tag);
      var children = Array.prototype.slice.call(arguments, 2);
      if (attrs) {
        Object.keys(attrs).forEach(function (key) {
          var value = attrs[key];
          if (value === null || value === undefined || value === false) { return; }
          if (key === "class") { node.className = value; } else { node.setAttribute(key, value); }
        });
      }
      children.forEach(function append(child) {
        if (child === null || child === undefined || child === false) { return; }
        if (Array.isArray(child)) { child.forEach(append); return; }
        node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
      });
      return node;
    }
    function table(caption, headers, rows) {
      return h("div", { "class": "table-wrap" }, h("table", null,
        caption ? h("caption", null, caption) : null,
        h("thead", null, h("tr", null, headers.map(function (x) { return h("th", { scope: "col" }, x); }))),
        h("tbody", null, rows.map(function (row) {
          return h("tr", row.attrs || null, (row.cells || row).map(function (x, i) {
            return i === 0 ? h("th", { scope: "row" }, x) : h("td", null, x);
          }));
        }))));
    }
    function seat(index) {
      if (index === null || index === undefined) { return "–"; }
      return h("span", { "class": "seat seat-" + index, title: data.seats[index] }, String(index));
    }
    function facts(pairs) {
      return h("ul", { "class": "facts" }, pairs.filter(Boolean).map(function (p) {
        return h("li", null, h("strong", null, p[0] + ": "), p[1]);
      }));
    }
    function card(label, cls) { return h("span", { "class": "card" + (cls ? " " + cls : "") }, label); }
    /* A seat's hidden cards, shown when the visitor views the finished game as that seat. */
    function hand(s, cards, count) {
      return h("div", { "class": "hand-cards", "aria-label": "hand of seat " + s },
        count ? h("div", { "class": "cards" }, cards) : h("span", { "class": "empty" }, "empty hand"));
    }
    /* SVG elements for the drawn boards: svg("rect", {x: 1, ...}, children...). */
    var SVGNS = "http://www.w3.org/2000/svg";
    function svg(tag, attrs) {
      var node = document.createElementNS(SVGNS, tag);
      Object.keys(attrs || {}).forEach(function (key) {
        var value = attrs[key];
        if (value !== null && value !== undefined && value !== false) { node.setAttribute(key, String(value)); }
      });
      Array.prototype.slice.call(arguments, 2).forEach(function append(child) {
        if (child === null || child === undefined || child === false) { return; }
        if (Array.isArray(child)) { child.forEach(append); return; }
        node.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
      });
      return node;
    }
    /* A board: an <svg> that scales to the drawing's width, with a title for screen readers. */
    function board(width, height, label, children) {
      return svg("svg", { "class": "board-svg", viewBox: "0 0 " + width + " " + height, role: "img",
        "aria-label": label, preserveAspectRatio: "xMidYMin meet" }, svg("title", null, label), children);
    }
    var SEAT_COLOURS = ["#0b5cad", "#a4161a", "#1a6b32", "#6b3fa0", "#8a5300"];
    /* A seat's round token; ``changed`` rings it in gold (what the step changed). */
    function token(x, y, s, r, changed) {
      return svg("g", { "class": "token" + (changed ? " changed" : "") },
        changed ? svg("circle", { cx: x, cy: y, r: r + 3, fill: "none", stroke: "#f0b400", "stroke-width": 3 }) : null,
        svg("circle", { cx: x, cy: y, r: r, fill: SEAT_COLOURS[s % 5], stroke: "#fff", "stroke-width": 1.5 }),
        svg("text", { x: x, y: y + r * 0.42, "text-anchor": "middle", "font-size": r * 1.2, "font-weight": 700, fill: "#fff" }, String(s)),
        svg("title", null, "seat " + s + ": " + data.seats[s]));
    }
    /* Whether the value at ``path`` differs between the previous step's view and this one. */
    function changed(ctx, view, path) {
      if (!ctx.previous) { return false; }
      var a = ctx.previous, b = view;
      for (var i = 0; i < path.length; i++) {
        a = a === null || a === undefined ? undefined : a[path[i]];
        b = b === null || b === undefined ? undefined : b[path[i]];
      }
      return JSON.stringify(a) !== JSON.stringify(b);
    }
    return { h: h, table: table, seat: seat, facts: facts, card: card, hand: hand,
      svg: svg, board: board, token: token, changed: changed, seatColours: SEAT_COLOURS };
  }
  window.MonsoonViewerHelpers = makeHelpers;

  var root = document.getElementById("viewer");
  var dataNode = document.getElementById("replay-data");
  if (!root || !dataNode) { return; }
  var data = JSON.parse(dataNode.textContent);
  var draw = (window.MonsoonGames || {})[data.game];
  var helpers = makeHelpers(data);
  var h = helpers.h, seat = helpers.seat;

  /* --- rebuild whole tables from the deltas ------------------------------------------------- */
  var clone = window.structuredClone || function (x) { return JSON.parse(JSON.stringify(x)); };
  var tables = [data.frames[0].table];
  /* Thinking time each seat has used up to each step (the runner's "ms" per decision). */
  var clocks = [data.seats.map(function () { return 0; })];
  var timed = false;
  /* Rebuild the tables and clocks of frames[from..]: once at load, then per live update. */
  function extend(from) {
    for (var i = from; i < data.frames.length; i++) {
      var next = clone(tables[i - 1]);
      data.frames[i].ops.forEach(function (op) {
        var path = op[0], target = next;
        if (path.length === 0) { next = op[1]; return; }
        for (var k = 0; k < path.length - 1; k++) { target = target[path[k]]; }
        target[path[path.length - 1]] = op[1];
      });
      tables.push(next);
      var used = clocks[i - 1].slice();
      var d = data.frames[i].decision;
      if (typeof d.ms === "number") { used[d.seat] += d.ms; timed = true; }
      clocks.push(used);
    }
    last = tables.length - 1;
  }
  var last = 0;
  extend(1);
  /* A live match is never over in this page: when it ends, the page reloads with the replay. */
  var live = data.live || null;

  var slider = document.getElementById("replay-step");
  var position = document.getElementById("replay-position");
  var decisionLine = document.getElementById("replay-decision");
  var drawing = document.getElementById("replay-drawing");
  var viewAs = document.getElementById("replay-view-as");
  var playButton = root.querySelector('[data-action="play"]');
  var clockLine = document.getElementById("replay-clock");
  var speed = document.getElementById("replay-speed");
  var changesList = document.getElementById("replay-changes");
  var stderrBox = document.getElementById("replay-stderr");
  var stderrNode = document.getElementById("replay-stderr-data");
  var stderrData = stderrNode ? JSON.parse(stderrNode.textContent) : {};
  var chart = document.getElementById("progress-chart");
  var forfeitSteps = data.forfeit_steps || {};
  var step = 0;
  var timer = null;

  /* A sentence with each bot's name in its seat's colour: spans are [start, end, seat]. */
  function named(text, spans) {
    var out = [], at = 0;
    (spans || []).forEach(function (span) {
      out.push(text.slice(at, span[0]));
      out.push(h("span", { "class": "seat-name seat-" + span[2], title: "seat " + span[2] }, text.slice(span[0], span[1])));
      at = span[1];
    });
    out.push(text.slice(at));
    return out;
  }
  function nameOf(s) { return h("span", { "class": "seat-name seat-" + s, title: "seat " + s }, data.seats[s]); }
  function sentenceOf(index) {
    var d = data.frames[index].decision;
    if (d.text) { return named(d.text, d.spans); }
    return [seat(d.seat), " " + data.seats[d.seat] + " plays " + (typeof d.action === "string" ? d.action : JSON.stringify(d.action)) + "."];
  }

  function forfeitNotes() {
    return data.forfeits.map(function (reason, s) {
      return reason ? h("span", { "class": "forfeit" }, " ", nameOf(s), " (seat " + s + ") forfeited: " + reason + ".") : null;
    });
  }

  function describe(index) {
    if (index === 0) { return ["Start of the game. ", data.seats.map(function (name, s) { return [seat(s), " " + name + " "]; })]; }
    var d = data.frames[index].decision;
    var meta = ["seat " + d.seat];
    if (typeof d.ms === "number") { meta.push((d.ms >= 100 ? Math.round(d.ms) : d.ms.toFixed(1)) + " ms"); }
    if (d.by && d.by !== "bot") { meta.push(d.by === "fallback" ? "played for the forfeited seat" : d.by); }
    var parts = [h("span", { "class": "sentence" }, sentenceOf(index)), " ",
      h("span", { "class": "decision-meta" }, "(" + meta.join(", ") + "; ", h("code", null, typeof d.action === "string" ? d.action : JSON.stringify(d.action)), ")")];
    Object.keys(forfeitSteps).forEach(function (s) {
      if (forfeitSteps[s] === index && index !== last) {
        parts.push(h("span", { "class": "forfeit" }, " ", nameOf(+s), " (seat " + s + ") forfeited here: " + data.forfeits[s] + "."));
      }
    });
    if (index === last && !live) {
      parts.push(data.result
        ? h("span", { "class": "result", id: "replay-result" }, " ", named(data.result.text, data.result.spans))
        : " Game over.", forfeitNotes());
    }
    return parts;
  }

  function showChanges(index) {
    if (!changesList) { return; }
    var lines = index === 0 ? [] : (data.frames[index].changes || []);
    changesList.replaceChildren.apply(changesList, lines.length
      ? lines.map(function (line) { return h("li", null, line); })
      : [h("li", { "class": "empty" }, index === 0 ? "Nothing yet: the game is about to start." : "Nothing public changed.")]);
  }

  function showStderr(index) {
    if (!stderrBox) { return; }
    var lines = [];
    Object.keys(stderrData).forEach(function (s) {
      var here = stderrData[s][String(index)];
      if (here) { lines.push("seat " + s + ":"); lines = lines.concat(here); }
    });
    stderrBox.textContent = lines.length ? lines.join("\n") : "(nothing written at this step)";
  }

  function moveCursor(index) {
    if (!chart) { return; }
    var left = +chart.getAttribute("data-left"), right = +chart.getAttribute("data-right");
    var x = left + (right - left) * index / Math.max(1, last);
    var cursor = chart.querySelector(".cursor");
    cursor.setAttribute("x1", x.toFixed(1));
    cursor.setAttribute("x2", x.toFixed(1));
  }

  function show(index) {
    step = Math.max(0, Math.min(last, index));
    var state = tables[step];
    var seatView = viewAs && viewAs.value !== "" ? parseInt(viewAs.value, 10) : null;
    var ctx = {
      seats: data.seats, viewAs: seatView,
      privatePart: seatView !== null && state.private ? state.private[seatView] : null,
      catalogue: data.catalogue || {}, decision: step > 0 ? data.frames[step].decision : null,
      previous: step > 0 ? tables[step - 1].public : null,
      over: step === last && !live
    };
    slider.max = String(last);
    slider.value = String(step);
    slider.setAttribute("aria-valuetext", "step " + step + " of " + last);
    position.textContent = step + " / " + last;
    decisionLine.replaceChildren(h("span", null, describe(step)));
    showChanges(step);
    showStderr(step);
    moveCursor(step);
    if (timed) {
      clockLine.replaceChildren(h("span", null, "Time used so far: ", clocks[step].map(function (ms, s) {
        return [seat(s), " " + (ms >= 1000 ? (ms / 1000).toFixed(2) + " s" : Math.round(ms) + " ms") + "  "];
      })));
    }
    var picture;
    try {
      picture = draw ? draw(state.public, ctx, helpers) : h("pre", null, JSON.stringify(state.public, null, 1));
    } catch (err) {
      picture = h("p", { "class": "notice" }, "This step could not be drawn: " + err.message);
    }
    drawing.replaceChildren(picture);
    markMove(step);
    if (timer === null && started) { remember(); }
  }

  /* --- the move list: one button per step, the current one marked ------------------------ */
  var moves = document.getElementById("replay-moves");
  var movesBox = moves ? moves.parentNode : null;
  var moveItems = [];
  function addMoves(from) {
    if (!moves) { return; }
    for (var i = from; i <= last; i++) {
      var label = i === 0 ? ["Start of the game."] : sentenceOf(i);
      var button = h("button", { type: "button", "class": "move", "data-step": String(i) },
        h("span", { "class": "move-number" }, String(i)), " ", label);
      var item = h("li", null, button);
      moves.appendChild(item);
      moveItems.push(item);
    }
  }
  if (moves) {
    moves.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-step]");
      if (button) { pause(); show(parseInt(button.getAttribute("data-step"), 10)); }
    });
  }
  var marked = null;
  function markMove(index) {
    if (!moveItems.length) { return; }
    if (marked) { marked.removeAttribute("aria-current"); }
    marked = moveItems[index] ? moveItems[index].firstChild : null;
    if (!marked) { return; }
    marked.setAttribute("aria-current", "step");
    /* Scroll the list only (never the page) so the current move is in view. */
    var top = marked.offsetTop - movesBox.offsetTop;
    if (top < movesBox.scrollTop || top > movesBox.scrollTop + movesBox.clientHeight - marked.offsetHeight) {
      movesBox.scrollTop = Math.max(0, top - movesBox.clientHeight / 3);
    }
  }

  /* --- a URL per step: #step=N (or #step=end) opens there; the address follows the step --- */
  function stepFromHash() {
    var found = /(?:^#|&)step=(end|\d+)/.exec(window.location.hash);
    if (!found) { return null; }
    return found[1] === "end" ? last : Math.min(last, parseInt(found[1], 10));
  }
  function remember() {
    var wanted = "#step=" + step;
    if (window.location.hash !== wanted && window.history && window.history.replaceState) {
      window.history.replaceState(null, "", wanted);
    }
  }
  window.addEventListener("hashchange", function () {
    var target = stepFromHash();
    if (target !== null && target !== step) { pause(); show(target); }
  });

  /* --- jumps: the next or previous round, the chosen seat's next or previous turn ---------- */
  var jumpSeat = document.getElementById("replay-jump-seat");
  function roundOf(index) { return tables[index].public.round; }
  function roundStart(index) {
    var i = index;
    while (i > 0 && roundOf(i - 1) === roundOf(index)) { i--; }
    return i;
  }
  var jumps = {
    "round-back": function () {
      var start = roundStart(step);
      return start < step ? start : (start > 0 ? roundStart(start - 1) : 0);
    },
    "round-next": function () {
      for (var i = step + 1; i <= last; i++) { if (roundOf(i) !== roundOf(step)) { return i; } }
      return last;
    },
    "turn-back": function () {
      var s = parseInt(jumpSeat.value, 10);
      for (var i = step - 1; i >= 1; i--) { if (data.frames[i].decision.seat === s) { return i; } }
      return step;
    },
    "turn-next": function () {
      var s = parseInt(jumpSeat.value, 10);
      for (var i = step + 1; i <= last; i++) { if (data.frames[i].decision.seat === s) { return i; } }
      return step;
    }
  };
  root.querySelectorAll("[data-jump]").forEach(function (button) {
    var name = button.getAttribute("data-jump");
    if (name.indexOf("round") === 0 && roundOf(0) === undefined) { button.hidden = true; return; }
    button.addEventListener("click", function () { pause(); show(jumps[name]()); });
  });

  function pause() {
    if (timer !== null) { window.clearInterval(timer); timer = null; remember(); }
    playButton.replaceChildren(h("span", { "aria-hidden": "true" }, "▶"), " Play");
    playButton.setAttribute("aria-pressed", "false");
  }
  function play() {
    if (step >= last) { show(0); }
    playButton.replaceChildren(h("span", { "aria-hidden": "true" }, "❚❚"), " Pause");
    playButton.setAttribute("aria-pressed", "true");
    timer = window.setInterval(function () {
      if (step >= last) { pause(); return; }
      show(step + 1);
    }, speed ? parseInt(speed.value, 10) : 500);
  }

  var actions = {
    first: function () { pause(); show(0); },
    back: function () { pause(); show(step - 1); },
    forward: function () { pause(); show(step + 1); },
    last: function () { pause(); show(last); },
    play: function () { if (timer === null) { play(); } else { pause(); } }
  };
  root.querySelectorAll("[data-action]").forEach(function (button) {
    button.addEventListener("click", function () { actions[button.getAttribute("data-action")](); });
  });
  slider.addEventListener("input", function () { pause(); show(parseInt(slider.value, 10)); });
  if (chart) {
    chart.addEventListener("click", function (event) {
      var box = chart.getBoundingClientRect(), scale = +chart.getAttribute("data-width") / box.width;
      var left = +chart.getAttribute("data-left"), right = +chart.getAttribute("data-right");
      var x = (event.clientX - box.left) * scale;
      pause();
      show(Math.round((x - left) / (right - left) * last));
    });
  }
  if (viewAs) { viewAs.addEventListener("change", function () { show(step); }); }
  if (speed) {
    speed.addEventListener("change", function () { if (timer !== null) { pause(); play(); } });
  }
  /* Keys work anywhere on the page, except while typing in a field (the slider and menus
   * have their own arrow keys) or with a modifier held (the browser's own shortcuts). */
  document.addEventListener("keydown", function (event) {
    var target = event.target, tag = target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || target.isContentEditable) { return; }
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var map = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };
    if (event.key === " " && tag !== "BUTTON" && tag !== "A") { map[" "] = "play"; }
    var action = map[event.key];
    if (action) { event.preventDefault(); actions[action](); }
  });
  root.setAttribute("tabindex", "-1");

  /* --- live: ask for the frames played since our last one, follow them if at the end -------- */
  var liveStatus = document.getElementById("live-status");
  var liveBadge = document.getElementById("live-badge");
  function say(text) { if (liveStatus) { liveStatus.textContent = text; } }
  function poll() {
    var url = live.url + "?since=" + last + "&run=" + encodeURIComponent(live.run);
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("the server answered " + response.status); }
        return response.json();
      })
      .then(function (update) {
        if (update.over || update.restart) {
          say(update.over ? "The match is over: loading the full replay…" : "The match was restarted: reloading…");
          /* Keep the spectator's step through the reload; one following the latest move
           * goes on to the end, where the result is. */
          var keep = step === last && timer === null ? "end" : String(step);
          if (window.history && window.history.replaceState) { window.history.replaceState(null, "", "#step=" + keep); }
          window.location.reload();
          return;
        }
        if (liveBadge) { liveBadge.textContent = "● " + update.status; }
        var following = step === last;
        if (update.frames && update.frames.length) {
          Array.prototype.push.apply(data.frames, update.frames);
          data.forfeits = update.forfeits || data.forfeits;
          extend(data.frames.length - update.frames.length);
          addMoves(data.frames.length - update.frames.length);
          if (following && timer === null) { show(last); } else { show(step); }
        }
        if (update.status === "running") {
          say(last + " moves played so far. " + (following ? "Following the latest move." : "Press End to follow the latest move."));
        }
        window.setTimeout(poll, live.poll_ms);
      })
      .catch(function (err) {
        say("Lost touch with the server (" + err.message + "); trying again…");
        window.setTimeout(poll, live.poll_ms * 5);
      });
  }
  addMoves(0);
  /* The first drawing leaves the address alone: a plain match URL stays plain until the
   * visitor moves. */
  var started = false;
  var opening = stepFromHash();
  if (live) {
    show(opening === null ? last : opening);
    window.setTimeout(poll, live.poll_ms);
  } else {
    show(opening === null ? 0 : opening);
  }
  started = true;
})();
