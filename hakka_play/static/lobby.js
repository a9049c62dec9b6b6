// The lobby: create a table, redeem an invitation (/join/<table>?invite=…), take a free seat of a listed table.
"use strict";
(async () => {
  const _ = HK.t;
  const ngettext = HK.n;  // gettext's plural forms
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  // JSON only: a form of another site can send no such request (the server refuses any other type)
  async function post(url, body) {
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    return { ok: r.ok, data: await r.json() };
  }
  function fail(box, text) { box.hidden = false; box.textContent = text; }

  const joining = /^\/join\/([0-9a-f]+)$/.exec(location.pathname);
  if (joining) {
    const invite = new URLSearchParams(location.search).get("invite") || "";
    $("join").hidden = false;
    $("join-title").textContent = _("You are invited to a seat at a table.");
    $("join-button").addEventListener("click", async () => {
      const { ok, data } = await post("/api/join", { table: joining[1], invite, name: $("join-name").value });
      if (!ok) { fail($("join-error"), data.error); return; }
      location.href = data.url;
    });
  }

  const spec = await (await fetch("/api/spec")).json();
  const box = $("decisions");
  for (const d of spec.decisions) {
    const label = el("label");
    const a = el("a", "", d.id);
    a.href = spec.links[d.id] ? spec.links[d.id].href : "#"; a.target = "_blank";
    const sel = el("select");
    sel.dataset.decision = d.id;
    for (const o of d.options) { const opt = el("option", "", o + (o === d.default ? " " + _("(default)") : "")); opt.value = o; sel.append(opt); }
    sel.value = d.default;
    label.append(a, ` ${d.title}${d.title.endsWith("?") ? "" : ":"} `, sel);
    box.append(label);
  }
  $("create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const options = {};
    for (const sel of box.querySelectorAll("select")) {
      const d = spec.decisions.find((x) => x.id === sel.dataset.decision);
      if (sel.value !== d.default) options[d.id] = sel.value;
    }
    const clock = $("clock").value;
    const { ok, data } = await post("/api/tables", { humans: Number($("humans").value), options, listed: $("listed").checked,
      name: $("name").value, turn_seconds: clock ? Number(clock) : null });
    if (!ok) { fail($("error"), data.error); return; }
    location.href = data.url;  // the creator's seat; its page offers the invitations of the others
  });

  async function listTables() {
    const data = await (await fetch("/api/tables")).json();
    const list = $("open-tables");
    if (!data.tables.length) { list.replaceChildren(el("li", "pl-muted", _("No open table right now."))); return; }
    list.replaceChildren(...data.tables.map((t) => {
      const li = el("li", "pl-opentable");
      li.dataset.table = t.table;
      const opts = Object.entries(t.options).map(([k, v]) => `\u2066${k}=${v}\u2069`).join(", ") || _("default rules");
      const about = { people: t.people, seats: t.free.map((s) => HK.num(s)).join(", "), hands: t.hands_played, options: opts };
      li.append(el("span", "", ngettext("{people} person, free seats: {seats} · hands played: {hands} · {options}",
        "{people} people, free seats: {seats} · hands played: {hands} · {options}", t.people, about) + " "));
      li.append(...details(t));
      const b = el("button", "pl-btn", _("Take a free seat"));
      b.type = "button";
      b.addEventListener("click", async () => {
        const { ok, data: seat } = await post("/api/join", { table: t.table, name: $("name").value });
        if (!ok) { fail($("error"), seat.error); listTables(); return; }
        location.href = seat.url;
      });
      li.append(b);
      return li;
    }));
  }
  // A listed table's players (their own names, as text), its clock, and its spectators' link.
  function details(t) {
    const out = [];
    if (t.names.length) { const b = el("bdi", "pl-muted", t.names.join(", ")); out.push(b, document.createTextNode(" · ")); }
    out.push(el("span", "pl-muted", (t.turn_seconds ? _("clock: {seconds} s", { seconds: t.turn_seconds }) : _("no clock")) + " "));
    const w = el("a", "pl-btn", _("Watch")); w.href = t.watch; w.target = "_blank";
    out.push(w, document.createTextNode(" "));
    return out;
  }
  listTables();
  setInterval(listTables, 5000);
})();
