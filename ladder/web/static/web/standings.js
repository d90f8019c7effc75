/* Standings: sort by any column without a reload, and refresh the rows from the server.
 * Sorting uses each cell's data-value; the header buttons carry the state in aria-sort.
 * The refresh fetches the table body as an HTML fragment and keeps the visitor's sort. */
(function () {
  "use strict";
  var table = document.getElementById("standings");
  if (!table) { return; }
  var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var status = table.querySelector(".refresh-status");
  var sortColumn = 0;
  var sortDirection = "ascending";

  function cellValue(row, column, type) {
    var cell = row.cells[column];
    var raw = cell ? cell.getAttribute("data-value") : null;
    if (raw === null) { return type === "number" ? -Infinity : ""; }
    return type === "number" ? parseFloat(raw) : raw.toLowerCase();
  }

  function applySort() {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).filter(function (r) { return r.cells.length > 1; });
    var type = headers[sortColumn].getAttribute("data-type");
    var sign = sortDirection === "ascending" ? 1 : -1;
    rows.sort(function (a, b) {
      var x = cellValue(a, sortColumn, type), y = cellValue(b, sortColumn, type);
      if (x < y) { return -sign; }
      if (x > y) { return sign; }
      return cellValue(a, 0, "number") - cellValue(b, 0, "number");
    });
    rows.forEach(function (row) { body.appendChild(row); });
    headers.forEach(function (th, i) {
      if (i === sortColumn) { th.setAttribute("aria-sort", sortDirection); }
      else { th.removeAttribute("aria-sort"); }
    });
  }

  headers.forEach(function (th, column) {
    var button = th.querySelector("button");
    if (!button) { return; }
    button.addEventListener("click", function () {
      if (sortColumn === column) {
        sortDirection = sortDirection === "ascending" ? "descending" : "ascending";
      } else {
        sortColumn = column;
        // Numbers read best largest first (rating, games), except the rank.
        sortDirection = th.getAttribute("data-type") === "number" && column !== 0 ? "descending" : "ascending";
      }
      applySort();
    });
  });

  var url = table.getAttribute("data-refresh-url");
  var seconds = parseInt(table.getAttribute("data-refresh-seconds"), 10) || 30;
  function refresh() {
    if (document.hidden) { return; }
    fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        table.tBodies[0].innerHTML = html;
        applySort();
        if (status) { status.textContent = "(updated " + new Date().toLocaleTimeString() + ")"; }
      })
      .catch(function () {
        if (status) { status.textContent = "(could not refresh; will retry)"; }
      });
  }
  window.setInterval(refresh, seconds * 1000);
  table.refreshStandings = refresh; // for tests and the impatient
})();
