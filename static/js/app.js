// Results entry by keyboard: focus a board row, press a result key.
// The buttons are ordinary form buttons, so everything also works without this file.
//
// Typing fast (issue 32, item 3): a key belongs to the board focused when it is pressed.
// The focus moves on to the next board at once, not when the server has answered, and
// the saves wait in a queue and go one at a time, in the order typed.  A key that cannot
// be applied (its board is still being saved, every board has a result) is refused with
// a sentence at the board, never passed on to another one.
(function () {
  "use strict";
  var KEYS = { "1": "1-0", "=": "1/2-1/2", "5": "1/2-1/2", "0": "0-1", "+": "+-", "-": "-+", "*": "--",
               "a": "1/2-0", "b": "0-1/2", "z": "0-0", "w": "W-L", "d": "D-D", "l": "L-W", "?": "adj" };
  var queue = [];       // [{board, value}] typed and not sent yet, in the order typed
  var inflight = null;  // the form whose save is on its way

  function rows() { return Array.prototype.slice.call(document.querySelectorAll("tr[data-board]")); }

  // The page's sentences, in its language (data-* of #key-hint); {name} are filled in.
  function say(name, fallback, values) {
    var box = document.getElementById("key-hint");
    var text = (box && box.dataset[name]) || fallback;
    Object.keys(values || {}).forEach(function (k) { text = text.split("{" + k + "}").join(values[k]); });
    return text;
  }

  // A notice at the board itself (issue 32, item 4): the arbiter is looking there.
  function boardHint(row, text) {
    clearHints();
    var cell = row.querySelector("td.result") || row.lastElementChild;
    var note = document.createElement("div");
    note.className = "board-hint";
    note.setAttribute("role", "status");
    note.textContent = text;
    cell.appendChild(note);
  }

  function pageHint(text) {
    clearHints();
    var box = document.getElementById("key-hint");
    if (box) box.textContent = text;
  }

  function clearHints() {
    Array.prototype.forEach.call(document.querySelectorAll(".board-hint"), function (n) { n.remove(); });
    var box = document.getElementById("key-hint");
    if (box) box.textContent = "";
  }

  function disarm() {
    rows().forEach(function (r) { delete r.dataset.armed; });
    clearHints();
  }

  function move(row, step) {
    disarm();
    var all = rows();
    var next = all[all.indexOf(row) + step];
    if (next) next.focus();
  }

  // The next board still waiting for a result (neither saved nor queued), after ``row``
  // and then from the top; when there is none, focus leaves the list.
  function focusNextOpen(row) {
    var all = rows();
    var i = all.indexOf(row);
    var order = all.slice(i + 1).concat(all.slice(0, i));
    for (var k = 0; k < order.length; k++) {
      if (!order[k].classList.contains("done") && !order[k].classList.contains("pending")) { order[k].focus(); return; }
    }
    var progress = document.getElementById("progress");
    if (progress) progress.focus();
  }

  // Send the oldest queued save; the next goes when this one is answered.
  function pump() {
    while (inflight === null && queue.length) {
      var item = queue.shift();
      var row = document.getElementById("board-" + item.board);
      var button = row && row.querySelector('button.rb[value="' + item.value + '"]');
      if (!button) {
        if (row) { row.classList.remove("pending"); boardHint(row, say("failed", "Board {board}: not saved. Press the key again.", { board: item.board })); }
        continue;
      }
      inflight = button.form;
      button.click();  // htmx posts the form with this button's value and swaps the row
    }
  }

  document.addEventListener("htmx:afterRequest", function (e) {
    // detail.elt is a parent once the form has been swapped out; requestConfig keeps it
    var config = e.detail.requestConfig;
    if (inflight === null || !config || config.elt !== inflight) return;
    var form = inflight;
    inflight = null;
    if (!e.detail.successful) {
      // the row was not replaced: it still shows the result stored before
      var row = form.closest("tr[data-board]");
      if (row) {
        row.classList.remove("pending");
        Array.prototype.forEach.call(row.querySelectorAll(".rb.queued"), function (b) { b.classList.remove("queued"); });
        boardHint(row, say("failed", "Board {board}: not saved. Press the key again.", { board: row.dataset.board }));
      }
    }
    pump();
  });

  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT" || e.target.tagName === "TEXTAREA") return;
    var value = KEYS[e.key];
    var row = e.target.closest ? e.target.closest("tr[data-board]") : null;
    if (!row) {
      // typed after the last open board: refused where the focus went (the progress line)
      if (value && e.target.id === "progress") { e.preventDefault(); pageHint(say("end", "Every board has a result: to change one, focus its board first.")); }
      return;
    }
    if (value) {
      var button = row.querySelector('button.rb[value="' + value + '"]');
      if (!button) return;
      e.preventDefault();
      if (row.classList.contains("pending")) {
        boardHint(row, say("saving", "Board {board} is still being saved: press the key again when its result shows.", { board: row.dataset.board }));
        return;
      }
      var current = row.querySelector("button.rb.on");
      if (current && current.value === value) { disarm(); return; }  // already that result
      if (current && row.dataset.armed !== value) {
        // A finished board: a stray key must not change it.  The same key again does.
        disarm();
        row.dataset.armed = value;
        boardHint(row, say("armed", "Board {board} already has {current}: press {key} again to change it to {new}.",
                           { board: row.dataset.board, current: current.textContent.trim(), key: e.key, "new": button.textContent.trim() }));
        return;
      }
      disarm();
      row.classList.add("pending");
      button.classList.add("queued");
      queue.push({ board: row.dataset.board, value: value });
      focusNextOpen(row);
      pump();
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
})();

// The language picker and the selects marked data-autosubmit (the byes page's round)
// apply a choice at once; without JavaScript their button does.
document.addEventListener("change", function (event) {
  var target = event.target;
  if (!target || !target.form) return;
  if (target.id === "language-choice" || target.hasAttribute("data-autosubmit")) target.form.submit();
});
