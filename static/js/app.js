// Results entry by keyboard: focus a board row, press a result key.
// The buttons are ordinary form buttons, so everything also works without this file.
(function () {
  "use strict";
  var KEYS = { "1": "1-0", "=": "1/2-1/2", "5": "1/2-1/2", "0": "0-1", "+": "+-", "-": "-+", "*": "--",
               "a": "1/2-0", "b": "0-1/2", "z": "0-0", "w": "W-L", "d": "D-D", "l": "L-W", "?": "adj" };
  var pendingFocus = null;

  function rows() { return Array.prototype.slice.call(document.querySelectorAll("tr[data-board]")); }

  function hint(text) {
    var box = document.getElementById("key-hint");
    if (box) box.textContent = text;
  }

  function disarm() {
    rows().forEach(function (r) { delete r.dataset.armed; });
    hint("");
  }

  function move(row, step) {
    disarm();
    var all = rows();
    var i = all.indexOf(row);
    var next = all[i + step];
    if (next) next.focus();
  }

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var row = e.target.closest ? e.target.closest("tr[data-board]") : null;
    if (!row || (e.target.tagName === "INPUT" || e.target.tagName === "SELECT")) return;
    var value = KEYS[e.key];
    if (value) {
      var button = row.querySelector('button[value="' + value + '"]');
      if (!button) return;
      e.preventDefault();
      var current = row.querySelector("button.rb.on");
      if (current && current.value === value) { disarm(); return; }  // already that result
      if (current && row.dataset.armed !== value) {
        // A finished board: a stray key must not change it.  The same key again does.
        disarm();
        row.dataset.armed = value;
        // the sentence comes from the page, in its language (#key-hint's data-armed)
        var box = document.getElementById("key-hint");
        var text = (box && box.dataset.armed) || "Board {board} already has {current}: press {key} again to change it to {new}.";
        hint(text.replace("{board}", row.dataset.board).replace("{current}", current.textContent.trim())
                 .replace("{key}", e.key).replace("{new}", button.textContent.trim()));
        return;
      }
      disarm();
      pendingFocus = row.dataset.board;
      button.click();
    } else if (e.key === "ArrowDown" || e.key === "j") {
      e.preventDefault(); move(row, 1);
    } else if (e.key === "ArrowUp" || e.key === "k") {
      e.preventDefault(); move(row, -1);
    }
  });

  // Forms marked data-once (pair, publish, imports): a double click sends one request.
  // The server is idempotent anyway; this just spares the second round trip.
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.hasAttribute || !form.hasAttribute("data-once")) return;
    if (form.dataset.sent) { e.preventDefault(); return; }
    form.dataset.sent = "1";
  });

  // The new-tournament form: the web address left empty is made from the name on the
  // server; show which one as the name is typed.
  function slugify(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[^a-z0-9\s-]/g, "").trim().replace(/[\s-]+/g, "-").slice(0, 60);
  }
  document.addEventListener("input", function (e) {
    if (e.target.id !== "id_name" || !e.target.form) return;
    var slug = e.target.form.querySelector("#id_slug");
    if (slug) slug.placeholder = slugify(e.target.value);
  });

  // Print buttons (data-print) on the public lists: shown only when this script runs.
  function showPrintButtons() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-print]"), function (b) { b.hidden = false; });
  }
  document.addEventListener("DOMContentLoaded", showPrintButtons);

  // The "swipe sideways" hint only where the table is really wider than the screen.
  function markScrollHints() {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll-hint"), function (hint) {
      var box = hint.nextElementSibling;
      if (box && box.classList.contains("scroll")) hint.classList.toggle("fits", box.scrollWidth <= box.clientWidth);
    });
  }
  document.addEventListener("DOMContentLoaded", markScrollHints);
  document.addEventListener("htmx:afterSettle", markScrollHints);
  window.addEventListener("resize", markScrollHints);
  document.addEventListener("htmx:afterSettle", showPrintButtons);
  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("[data-print]") : null;
    if (button) { e.preventDefault(); window.print(); }
  });

  // After a row is swapped in, go to the next board still waiting for a result
  // (or simply the next board).
  document.addEventListener("htmx:afterSettle", function () {
    if (pendingFocus === null) return;
    var row = document.getElementById("board-" + pendingFocus);
    pendingFocus = null;
    if (!row) return;
    var all = rows();
    var i = all.indexOf(row);
    var order = all.slice(i + 1).concat(all.slice(0, i));
    for (var k = 0; k < order.length; k++) {
      if (!order[k].classList.contains("done")) { order[k].focus(); return; }
    }
    // Every board has a result: focus leaves the list (a stray key changes nothing).
    var progress = document.getElementById("progress");
    if (progress) progress.focus();
  });
})();

// The language picker applies a choice at once; without JavaScript its button does.
document.addEventListener("change", function (event) {
  if (event.target && event.target.id === "language-choice") event.target.form.submit();
});
