/* Behaviour of the generated pages (replay/site); no dependency, works offline.
 *
 * - Sortable tables: every table inside an element with the class "sortable" sorts by a
 *   column when its heading is clicked (again: the other way).  Numbers sort as numbers.
 * - The stepper of the example-game pages: the steps (one <section class="step"> each,
 *   readable without JavaScript as collapsible blocks) are shown one at a time, with
 *   first / previous / next / last buttons, a slider and the arrow keys.
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

  function makeStepper(box) {
    if (box.dataset.stepper === "on") return;
    box.dataset.stepper = "on";
    var steps = box.querySelectorAll(".step");
    if (!steps.length) return;
    var last = steps.length - 1;
    var bar = document.createElement("div");
    bar.className = "stepper";
    bar.innerHTML =
      '<button type="button" data-go="first" title="Start (Home)">« start</button>' +
      '<button type="button" data-go="prev" title="Previous move (←)">‹ previous</button>' +
      '<input type="range" min="0" max="' + last + '" value="0" aria-label="Move">' +
      '<button type="button" data-go="next" title="Next move (→)">next ›</button>' +
      '<button type="button" data-go="last" title="End (End)">end »</button>' +
      '<output aria-live="polite"></output>' +
      '<button type="button" data-go="all" title="Show every move as a list">list</button>';
    box.parentNode.insertBefore(bar, box);
    var slider = bar.querySelector("input");
    var out = bar.querySelector("output");
    var current = 0;

    function show(k, fromHash) {
      current = Math.max(0, Math.min(last, k));
      Array.prototype.forEach.call(steps, function (s, j) {
        s.classList.toggle("current", j === current);
        if (j === current) s.querySelector("details").open = true;
      });
      slider.value = String(current);
      out.textContent = current === 0 ? "start" : "move " + current + " of " + last;
      if (!fromHash && history.replaceState) {
        history.replaceState(null, "", current === 0 ? location.pathname : "#move-" + current);
      }
    }

    box.classList.add("stepping");
    bar.addEventListener("click", function (ev) {
      var go = ev.target.getAttribute && ev.target.getAttribute("data-go");
      if (!go) return;
      if (go === "all") {
        var on = box.classList.toggle("stepping");
        ev.target.textContent = on ? "list" : "stepper";
        return;
      }
      box.classList.add("stepping");
      show({ first: 0, prev: current - 1, next: current + 1, last: last }[go]);
    });
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    document.addEventListener("keydown", function (ev) {
      if (!box.classList.contains("stepping") || ev.target.closest("input:not([type=range]), textarea")) return;
      if (ev.key === "ArrowRight") { show(current + 1); ev.preventDefault(); }
      else if (ev.key === "ArrowLeft") { show(current - 1); ev.preventDefault(); }
      else if (ev.key === "Home") { show(0); ev.preventDefault(); }
      else if (ev.key === "End") { show(last); ev.preventDefault(); }
    });
    var m = /^#move-(\d+)$/.exec(location.hash);
    show(m ? Number(m[1]) : 0, true);
  }

  function init() {
    document.querySelectorAll(".sortable table").forEach(makeSortable);
    document.querySelectorAll(".game-steps").forEach(makeStepper);
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
