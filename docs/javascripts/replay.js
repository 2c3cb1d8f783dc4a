/* Behaviour of the generated pages (replay/site); no dependency, works offline.
 *
 * - Sortable tables: every table inside an element with the class "sortable" sorts by a
 *   column when its heading is clicked (again: the other way).  Numbers sort as numbers.
 * The example-game pages' viewer has its own script, replay/view/static/viewer.js (one
 * implementation for the site and `replay view`), which the site serves as an asset.
 */
(function () {
  "use strict";

  function cellText(row, i) {
    var cell = row.cells[i];
    return cell ? cell.textContent.trim() : "";
  }

  function compare(a, b) {
    var x = parseFloat(a), y = parseFloat(b);
    if (!isNaN(x) && !isNaN(y) && /^[\d.\-]+$/.test(a) && /^[\d.\-]+$/.test(b)) return x - y;
    return a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });
  }

  function makeSortable(table) {
    if (table.dataset.sortable === "on" || !table.tHead) return;
    table.dataset.sortable = "on";
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, i) {
      th.setAttribute("role", "button");
      th.setAttribute("tabindex", "0");
      th.title = "Sort by this column";
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.forEach(function (r, k) { r.dataset.order = r.dataset.order || String(k); });
        rows.sort(function (r1, r2) {
          var c = compare(cellText(r1, i), cellText(r2, i));
          if (c === 0) c = Number(r1.dataset.order) - Number(r2.dataset.order);
          return asc ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (ev) {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sort(); }
      });
    });
  }

  function init() {
    document.querySelectorAll(".sortable table").forEach(makeSortable);
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
