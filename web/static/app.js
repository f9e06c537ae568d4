// The page works without this file (forms post, checkboxes tick); it adds what tapping needs:
// the order of taps where order matters (a trick, the seats, the order of events), the count of
// cards chosen, a confirmation before discarding, printing the ruling's sheet, one submit per tap.
(function () {
  "use strict";

  function ordered(group) {
    var form = group.closest("form");
    var hidden = form.querySelector('input[name="order"]');
    var sequence = form.querySelector("[data-sequence]");
    var taps = [];
    var boxes = Array.prototype.slice.call(group.querySelectorAll('input[type="checkbox"]'));
    boxes.forEach(function (box) { if (box.checked) taps.push(box); });

    function show() {
      boxes.forEach(function (box) {
        var mark = box.parentNode.querySelector(".rank");
        var at = taps.indexOf(box);
        if (mark) mark.textContent = at >= 0 ? String(at + 1) : "";
      });
      if (hidden) hidden.value = taps.map(function (b) { return b.value; }).join(",");
      if (sequence) sequence.textContent = taps.map(function (b) {
        return b.getAttribute("data-label") || b.value; }).join("  ");
    }
    boxes.forEach(function (box) {
      box.addEventListener("change", function () {
        var at = taps.indexOf(box);
        if (box.checked && at < 0) taps.push(box);
        if (!box.checked && at >= 0) taps.splice(at, 1);
        show();
      });
    });
    var clear = form.querySelector("[data-clear]");
    if (clear) clear.addEventListener("click", function () {
      taps.forEach(function (b) { b.checked = false; });
      taps = [];
      show();
    });
    show();
  }

  function counter(form) {
    var count = form.querySelector("[data-count]");
    if (!count) return;
    var box = count.closest(".counter");
    var expects = parseInt(box.getAttribute("data-expects"), 10);
    function show() {
      var n = form.querySelectorAll('input[name="card"]:checked').length;
      count.textContent = String(n);
      box.classList.toggle("full", n === expects);
      box.classList.toggle("over", n > expects);
    }
    form.addEventListener("change", show);
    show();
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.documentElement.classList.add("js");
    Array.prototype.forEach.call(document.querySelectorAll('[data-ordered="yes"]'), ordered);
    Array.prototype.forEach.call(document.querySelectorAll("form.cardstep"), counter);

    Array.prototype.forEach.call(document.querySelectorAll("form"), function (form) {
      form.addEventListener("submit", function (event) {
        var question = form.getAttribute("data-confirm");
        if (question && !window.confirm(question)) { event.preventDefault(); return; }
        if (form.getAttribute("data-sent")) { event.preventDefault(); return; }  // a second tap
        form.setAttribute("data-sent", "1");
      });
    });

    var sheet = document.getElementById("sheet");
    if (sheet) {
      var fit = function () {
        try {
          var doc = sheet.contentDocument;
          if (doc && doc.documentElement) sheet.style.height = (doc.documentElement.scrollHeight + 24) + "px";
        } catch (e) { /* the sheet keeps its own scroll bar */ }
      };
      sheet.addEventListener("load", fit);
      window.addEventListener("resize", fit);
      fit();
      Array.prototype.forEach.call(document.querySelectorAll("[data-print]"), function (link) {
        link.addEventListener("click", function (event) {
          if (!sheet.contentWindow) return;
          event.preventDefault();
          sheet.contentWindow.focus();
          sheet.contentWindow.print();
        });
      });
    }
  });

  // Back from another page (the browser's bfcache) must not keep a form marked as sent.
  window.addEventListener("pageshow", function () {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-sent]"), function (f) {
      f.removeAttribute("data-sent");
    });
  });
})();
