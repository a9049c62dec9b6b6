// The scenario catalogue's search box and filters (area, kind, decision option): rows are
// hidden in place, nothing is fetched. Each row carries its facets as classes
// (hk-area-play, hk-kind-trajectory, hk-dec-d7), written by docs/_ext/hakka_scenarios.py.
(function () {
  "use strict";
  function setup(form) {
    var rows = Array.prototype.slice.call(document.querySelectorAll("tr.hk-sc-row"));
    var out = form.querySelector("output[name=shown]");
    var template = form.getAttribute("data-shown") || "{shown} / {total}";
    function apply() {
      var q = form.q.value.trim().toLowerCase();
      var area = form.area.value, kind = form.kind.value, dec = form.dec.value;
      var shown = 0;
      rows.forEach(function (row) {
        var c = row.classList;
        var ok = (!area || c.contains("hk-area-" + area)) &&
                 (!kind || c.contains("hk-kind-" + kind)) &&
                 (!dec || c.contains("hk-dec-" + dec)) &&
                 (!q || row.textContent.toLowerCase().indexOf(q) !== -1);
        row.hidden = !ok;
        if (ok) { shown += 1; }
      });
      document.querySelectorAll("table.hk-catalogue").forEach(function (table) {
        var any = table.querySelector("tr.hk-sc-row:not([hidden])") !== null;
        table.hidden = !any;
        var head = table.previousElementSibling;
        if (head && head.classList.contains("hk-catalogue-group")) { head.hidden = !any; }
      });
      out.textContent = template.replace("{shown}", shown).replace("{total}", rows.length);
    }
    form.addEventListener("input", apply);
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    apply();
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-hk-filter]").forEach(setup);
  });
})();

// A link to a scenario or a quote folded inside <details> opens what holds it.
(function () {
  "use strict";
  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var el = id && document.getElementById(id);
    for (var p = el; p; p = p.parentElement) {
      if (p.tagName === "DETAILS") { p.open = true; }
    }
    if (el) { el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", reveal);
  document.addEventListener("DOMContentLoaded", reveal);
})();

// A right-to-left page reads from the right: the previous page is on the right, so its arrow points
// right, and the next page's left (alabaster writes the left-to-right arrows into its relbars).
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  if (document.documentElement.dir !== "rtl") { return; }
  var swap = { "\u2190": "\u2192", "\u2192": "\u2190" };
  document.querySelectorAll("nav#rellinks li").forEach(function (li) {
    li.childNodes.forEach(function (node) {
      if (node.nodeType === 3) { node.textContent = node.textContent.replace(/[\u2190\u2192]/g, function (a) { return swap[a]; }); }
    });
  });
});
