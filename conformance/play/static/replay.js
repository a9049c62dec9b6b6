// The replay viewer: a scenario or fuzz trace, one step at a time, with every seat's cards.
"use strict";
(async () => {
  const page = document.getElementById("page");
  const params = new URLSearchParams(location.search);
  const id = params.get("id");
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  // JSON with short arrays and small objects on one line, so an expectation reads like the scenario's YAML
  function compact(v, pad = "") {
    const flat = JSON.stringify(v);
    if (v === null || typeof v !== "object" || flat.length <= 72) return flat;
    const inner = pad + "  ";
    if (Array.isArray(v)) return "[\n" + v.map((x) => inner + compact(x, inner)).join(",\n") + "\n" + pad + "]";
    return "{\n" + Object.entries(v).map(([k, x]) => `${inner}${JSON.stringify(k)}: ${compact(x, inner)}`).join(",\n") + "\n" + pad + "}";
  }
  const json = (v) => el("pre", "rp-json", compact(v));
  function link(c) {
    if (!c.href) return el("span", "pl-rule", c.id);
    const a = el("a", "pl-rule", c.id); a.href = c.href; a.target = "_blank"; return a;
  }

  if (!id) {
    const data = await (await fetch("/api/replays")).json();
    const sec = el("section");
    sec.append(el("h2", "", `Scenarios (${data.scenarios.length})`),
      el("p", "pl-muted", "Pick a scenario to step through it on the reference engine. Pattern scenarios show their request; "
        + "count scenarios show their setup, prefix and counts. From a shell: hakka-play --replay <id | file.yaml | trace.json>."));
    const byFile = new Map();
    for (const s of data.scenarios) { if (!byFile.has(s.file)) byFile.set(s.file, []); byFile.get(s.file).push(s); }
    for (const [file, list] of byFile) {
      sec.append(el("h3", "", file));
      const ul = el("ul", "rp-list");
      for (const s of list) {
        const li = el("li"); const a = el("a", "", s.id); a.href = `/replay/view?id=${encodeURIComponent(s.id)}`;
        li.append(a, document.createTextNode(` · ${s.kind} · ${s.title}`)); ul.append(li);
      }
      sec.append(ul);
    }
    page.replaceChildren(sec);
    return;
  }
  const r = await fetch(`/api/replay?id=${encodeURIComponent(id)}`);
  const data = await r.json();
  if (!r.ok) { page.replaceChildren(el("div", "pl-error", data.error)); return; }
  document.title = `${data.id}: replay`;
  const head = el("section");
  head.append(el("h2", "", data.title));
  const meta = el("p", "");
  meta.append(el("code", "", data.id), document.createTextNode(` · ${data.kind} · ${data.file}${data.line ? ":" + data.line : ""} · `));
  for (const c of data.clauses) { meta.append(link(c), document.createTextNode(" ")); }
  const opts = typeof data.requires === "string" || !data.requires ? (data.requires || "defaults")
    : Object.entries(data.requires).map(([k, v]) => `${k}=${v}`).join(", ") || "defaults";
  meta.append(document.createTextNode(` · options: ${opts}`));
  head.append(meta);
  if (data.generated) head.append(el("p", "pl-muted", "Generated vector: its expectations are the reference engine's answers."));
  if (data.notes) head.append(el("p", "", data.notes));
  if (data.problem) head.append(el("div", "pl-error", data.problem));
  page.replaceChildren(head);
  if (data.request && !data.steps.length) {
    const sec = el("section"); sec.append(el("h3", "", "The request (a pattern scenario has no table)"), json(data.request));
    page.append(sec); return;
  }
  const layout = el("div", "rp-layout");
  const steps = el("ol", "rp-steps");
  const main = el("section", "rp-main");
  layout.append(el("section"), main);
  layout.firstChild.append(el("h3", "", `Steps (${data.steps.length})`), steps);
  page.append(layout);
  let at = 0;
  data.steps.forEach((s, i) => {
    const li = el("li", "", `${i}. ${s.label}`);
    if (s.outcome && !s.outcome.ok) li.classList.add(s.expected_error ? "rp-refused" : "rp-bad");
    li.addEventListener("click", () => show(i));
    steps.append(li);
  });
  function seatBox(st, s) {
    const box = el("div", "rp-seat");
    if (st.to_act === s) box.classList.add("pl-turn");
    const elders = new Set(HK.words(st.elders));
    const name = el("div", "pl-name", `Seat ${s}`);
    const tags = el("span", "pl-tags");
    if (s === st.dealer) tags.append(el("span", "pl-tag pl-tag-dealer", "Dealer"));
    if (s === st.dreamer) tags.append(el("span", "pl-tag pl-tag-dreamer", "Dreamer"));
    if (s === st.privileged) tags.append(el("span", "pl-tag pl-tag-pp", "Privileged Player"));
    if (st.to_act === s) tags.append(el("span", "pl-toact", " to act"));
    name.append(tags);
    box.append(name, HK.cards(st.hands[s], elders), el("div", "pl-muted", `tricks ${st.tricks[s]}`));
    return box;
  }
  function show(i) {
    at = Math.max(0, Math.min(data.steps.length - 1, i));
    [...steps.children].forEach((li, j) => li.classList.toggle("rp-on", j === at));
    const s = data.steps[at];
    main.replaceChildren();
    const nav = el("div", "rp-nav");
    const prev = el("button", "pl-btn", "◀ previous"); prev.id = "prev"; prev.onclick = () => show(at - 1); prev.disabled = at === 0;
    const next = el("button", "pl-btn", "next ▶"); next.id = "next"; next.onclick = () => show(at + 1); next.disabled = at === data.steps.length - 1;
    nav.append(prev, next, el("strong", "", `Step ${at} of ${data.steps.length - 1}: ${s.label}`));
    if (s.line) nav.append(el("span", "pl-muted", `(${data.file}:${s.line})`));
    main.append(nav);
    if (s.outcome) {
      const o = el("p", s.outcome.ok ? "" : "pl-error");
      if (s.outcome.ok) o.textContent = s.expected_error ? `The reference ACCEPTED it, but the scenario expects a refusal (${s.expected_error}).` : "The reference accepts it.";
      else {
        o.append(document.createTextNode(`The reference refuses it (${s.outcome.kind}): ${s.outcome.message} `));
        if (s.outcome.rule) o.append(link({ id: s.outcome.rule, href: s.outcome.href }));
        if (s.expected_error) o.append(document.createTextNode(` · the scenario expects: ${s.expected_error}${s.expected_rule ? " [" + s.expected_rule + "]" : ""}`));
      }
      main.append(o);
    }
    if (s.request) main.append(el("h3", "", "The setup sent"), json(s.request));
    const expect = () => { if (s.expect) main.append(el("h3", "", s.kind === "final" ? "Expected at the end" : "Expected after this step"), json(s.expect)); };
    const st = s.state;
    if (!st) { expect(); return; }
    const info = el("p", "");
    info.textContent = `phase ${st.phase} · to act ${st.to_act === null ? "nobody" : "seat " + st.to_act}`
      + (st.game ? ` · game hand ${st.game.hand}, scores ${st.game.scores.join(" / ")}` : "");
    main.append(info);
    const seats = el("div", "rp-seats");
    for (let k = 0; k < 4; k++) seats.append(seatBox(st, k));
    main.append(seats);
    const round = el("div", "pl-center");
    round.append(el("div", "pl-phase", `Round (leader seat ${st.round.leader})`));
    const elders = new Set(HK.words(st.elders));
    for (const p of st.round.plays) {
      const row = el("div", "pl-play"); row.append(el("span", "pl-who", `Seat ${p.seat}`));
      const [verb, ...rest] = p.action.split(" ");
      row.append(verb === "play" || verb === "discard" ? HK.cards(rest, elders, { down: verb === "discard" }) : el("span", "", verb));
      round.append(row);
    }
    main.append(round);
    const el2 = el("p", ""); el2.append(el("strong", "", "Elders: "), HK.cards(HK.words(st.elders), elders)); main.append(el2);
    expect();
    if (st.legal && (st.legal.actions.length || st.legal.discard)) {
      main.append(el("h3", "", "Legal now"), json(st.legal));
    }
    if (st.result) main.append(el("h3", "", "Result"), json(st.result));
  }
  document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") show(at + 1); if (e.key === "ArrowLeft") show(at - 1); });
  show(0);
})();
