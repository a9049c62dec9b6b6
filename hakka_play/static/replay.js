// The replay viewer: a scenario or fuzz trace, one step at a time, with every seat's cards.
"use strict";
(async () => {
  const _ = HK.t;
  const ngettext = HK.n;  // gettext's plural forms
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
  const json = (v) => { const p = el("pre", "rp-json", compact(v)); p.dir = "ltr"; return p; };
  const english = (tag, cls, text) => { const e = el(tag, cls, text); e.lang = "en"; e.dir = "auto"; return e; };
  function link(c) {
    if (!c.href) return el("span", "pl-rule", c.id);
    const a = el("a", "pl-rule", c.id); a.href = c.href; a.target = "_blank"; return a;
  }

  // A step's label and a state's phase in the page's language (the model, conformance/replay.py, labels in
  // English); an action stays notation, isolated so that it keeps its order in right-to-left text.
  const PHASES = { calling: _("Calling"), tigers: _("Five Tigers"), playing: _("Playing"), claim: _("Claim"),
    ended: _("hand over"), "game-over": _("game over") };
  const notation = (text) => { const b = el("bdi", "", text); b.dir = "ltr"; return b; };
  const isolated = (text) => `\u2068${text}\u2069`;  // a number or a name amid text of the other direction keeps its place
  const MARK = "\u0000";  // where the action goes in the translated sentence, whatever the word order
  const around = (text, node) => { const [before, after = ""] = text.split(MARK); return [before, node, after]; };
  function stepLabel(s) {
    const span = el("span", "rp-label");
    const parts = { setup: [_("the deal")], expect: [_("check")], final: [_("final")],
      start: [_("a setup to refuse as {error}", { error: s.expected_error })],
      do: around(_("seat {seat}: {action}", { seat: s.seat, action: MARK }), notation(s.action)),
      reject: around(_("seat {seat} tries {action}", { seat: s.seat, action: MARK }), notation(s.action)) }[s.kind];
    if (!parts) { span.lang = "en"; span.dir = "auto"; span.textContent = s.label; return span; }
    span.append(...parts);
    return span;
  }
  // A pattern scenario drawn as cards: the play to beat and its challenger, or the cards to classify,
  // with the verdict the scenario expects. The request itself stays below, as sent.
  const VERDICT = { beats: _("beats it"), "does-not-beat": _("does not beat it"), run: _("Run"), set: _("Set"), single: _("Single"), none: _("no pattern") };
  function pattern(req) {
    const sec = el("section", "rp-pattern");
    const elders = new Set(HK.words(req.elders));
    const row = (label, cards, cls) => {
      const r = el("div", "rp-prow " + (cls || "")); r.append(el("span", "rp-plabel", label), HK.cards(HK.words(cards), elders)); return r;
    };
    if (req.classify !== undefined) {
      sec.append(el("h3", "", _("Which pattern are these cards?")), row(_("Cards"), req.classify, "rp-classify"));
    } else {
      sec.append(el("h3", "", _("Does the challenger beat the play on the table?")),
        row(req.led ? _("Led") : _("On the table"), req.current, "rp-current"), row(_("Challenger"), req.challenger, "rp-challenger"));
    }
    const verdict = el("p", "rp-verdict");
    verdict.append(el("strong", "", _("The scenario expects:") + " "), el("span", "rp-expect", VERDICT[req.expect] || String(req.expect)));
    sec.append(verdict);
    if (req.elders) sec.append(row(_("Elders"), req.elders, "rp-elders"));
    const raw = el("details"); raw.append(el("summary", "", _("The request as sent")), json(req));
    sec.append(raw);
    return sec;
  }

  if (!id) {
    const data = await (await fetch("/api/replays")).json();
    const sec = el("section");
    sec.append(el("h2", "", _("Scenarios ({count})", { count: data.scenarios.length })),
      el("p", "pl-muted", _("Pick a scenario to step through it on the reference engine. Pattern scenarios show their cards; count scenarios show their setup, prefix and counts. Titles are in English. From a shell: {command}",
        { command: "hakka-play --replay <id | file.yaml | trace.json>" })));
    const byFile = new Map();
    for (const s of data.scenarios) { if (!byFile.has(s.file)) byFile.set(s.file, []); byFile.get(s.file).push(s); }
    for (const [file, list] of byFile) {
      sec.append(el("h3", "", file));
      const ul = el("ul", "rp-list");
      for (const s of list) {
        const li = el("li"); const a = el("a", "", s.id); a.href = `/replay/view?id=${encodeURIComponent(s.id)}`;
        li.append(a, document.createTextNode(` · ${s.kind} · `), english("span", "", s.title)); ul.append(li);
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
  head.append(english("h2", "", data.title));
  const meta = el("p", "");
  meta.dir = "auto";
  meta.append(el("code", "", data.id), document.createTextNode(` · ${isolated(data.kind)} · `), notation(`${data.file}${data.line ? ":" + data.line : ""}`), document.createTextNode(" · "));
  for (const c of data.clauses) { meta.append(link(c), document.createTextNode(" ")); }
  const opts = typeof data.requires === "string" || !data.requires ? (!data.requires || data.requires === "defaults" ? _("defaults") : data.requires)
    : Object.entries(data.requires).map(([k, v]) => `\u2066${k}=${v}\u2069`).join(", ") || _("defaults");
  meta.append(document.createTextNode(" · " + _("options: {options}", { options: opts })));
  head.append(meta);
  if (data.generated) head.append(el("p", "pl-muted", _("Generated vector: its expectations are the reference engine's answers.")));
  if (data.notes) head.append(english("p", "", data.notes));
  if (data.problem) head.append(english("div", "pl-error", data.problem));
  page.replaceChildren(head);
  if (data.request && !data.steps.length) {
    page.append(pattern(data.request));
    return;
  }
  const layout = el("div", "rp-layout");
  const steps = el("ol", "rp-steps");
  const main = el("section", "rp-main");
  layout.append(el("section"), main);
  layout.firstChild.append(el("h3", "", _("Steps ({count})", { count: data.steps.length })), steps);
  page.append(layout);
  let at = 0;
  data.steps.forEach((s, i) => {
    const li = el("li", "", `${HK.num(i)}. `);
    li.append(stepLabel(s));
    if (s.outcome && !s.outcome.ok) li.classList.add(s.expected_error ? "rp-refused" : "rp-bad");
    li.addEventListener("click", () => show(i));
    steps.append(li);
  });
  function seatBox(st, s) {
    const box = el("div", "rp-seat");
    if (st.to_act === s) box.classList.add("pl-turn");
    const elders = new Set(HK.words(st.elders));
    const name = el("div", "pl-name", _("Seat {seat}", { seat: s }));
    const tags = el("span", "pl-tags");
    if (s === st.dealer) tags.append(el("span", "pl-tag pl-tag-dealer", _("Dealer")));
    if (s === st.dreamer) tags.append(el("span", "pl-tag pl-tag-dreamer", _("Dreamer")));
    if (s === st.privileged) tags.append(el("span", "pl-tag pl-tag-pp", _("Privileged Player")));
    if (st.to_act === s) tags.append(el("span", "pl-toact", " " + _("to act…")));
    name.append(tags);
    box.append(name, HK.cards(st.hands[s], elders), el("div", "pl-muted", ngettext("{count} trick", "{count} tricks", st.tricks[s], { count: st.tricks[s] })));
    return box;
  }
  function show(i) {
    at = Math.max(0, Math.min(data.steps.length - 1, i));
    [...steps.children].forEach((li, j) => li.classList.toggle("rp-on", j === at));
    const s = data.steps[at];
    main.replaceChildren();
    const nav = el("div", "rp-nav");
    const prev = el("button", "pl-btn", _("previous")); prev.id = "prev"; prev.onclick = () => show(at - 1); prev.disabled = at === 0;
    const next = el("button", "pl-btn", _("next")); next.id = "next"; next.onclick = () => show(at + 1); next.disabled = at === data.steps.length - 1;
    nav.append(prev, next, el("strong", "", _("Step {at} of {last}:", { at, last: data.steps.length - 1 }) + " "), stepLabel(s));
    if (s.line) { const where = el("span", "pl-muted", `(${data.file}:${s.line})`); where.dir = "ltr"; nav.append(where); }
    main.append(nav);
    if (s.outcome) {
      const o = el("p", s.outcome.ok ? "" : "pl-error");
      if (s.outcome.ok) o.textContent = s.expected_error ? _("The reference ACCEPTED it, but the scenario expects a refusal ({error}).", { error: s.expected_error }) : _("The reference accepts it.");
      else {
        o.append(document.createTextNode(_("The reference refuses it ({kind}):", { kind: s.outcome.kind }) + " "), english("span", "", s.outcome.message + " "));
        if (s.outcome.rule) o.append(link({ id: s.outcome.rule, href: s.outcome.href }));
        if (s.expected_error) o.append(document.createTextNode(" · " + _("the scenario expects: {error}", { error: s.expected_error + (s.expected_rule ? " [" + s.expected_rule + "]" : "") })));
      }
      main.append(o);
    }
    if (s.request) main.append(el("h3", "", _("The setup sent")), json(s.request));
    const expect = () => { if (s.expect) main.append(el("h3", "", s.kind === "final" ? _("Expected at the end") : _("Expected after this step")), json(s.expect)); };
    const st = s.state;
    if (!st) { expect(); return; }
    const info = el("p", "rp-info");
    info.dir = "auto";
    // each part isolated, the scores each on its own, so that no number or minus sign drifts in right-to-left text
    const toAct = st.to_act === null ? _("nobody") : _("Seat {seat}", { seat: st.to_act });  // not inside _(): babel would not extract it
    info.textContent = _("phase {phase} · to act: {who}", { phase: isolated(PHASES[st.phase] || st.phase), who: isolated(toAct) })
      + (st.game ? " · " + _("game hand {hand}, scores {scores}", { hand: st.game.hand, scores: st.game.scores.map((v) => isolated(HK.num(v, { signed: true }))).join(" / ") }) : "");
    main.append(info);
    const seats = el("div", "rp-seats");
    for (let k = 0; k < 4; k++) seats.append(seatBox(st, k));
    main.append(seats);
    const round = el("div", "pl-center");
    round.append(el("div", "pl-phase", _("Round (led by seat {seat})", { seat: st.round.leader })));
    const elders = new Set(HK.words(st.elders));
    for (const p of st.round.plays) {
      const row = el("div", "pl-play"); row.append(el("span", "pl-who", _("Seat {seat}", { seat: p.seat })));
      const [verb, ...rest] = p.action.split(" ");
      row.append(verb === "play" || verb === "discard" ? HK.cards(rest, elders, { down: verb === "discard" }) : el("span", "", verb));
      round.append(row);
    }
    main.append(round);
    const el2 = el("p", ""); el2.append(el("strong", "", _("Elders") + ": "), HK.cards(HK.words(st.elders), elders)); main.append(el2);
    expect();
    if (st.legal && (st.legal.actions.length || st.legal.discard)) {
      main.append(el("h3", "", _("Legal now")), json(st.legal));
    }
    if (st.result) main.append(el("h3", "", _("Result")), json(st.result));
  }
  const [forward, back] = HK.dir === "rtl" ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];  // next is where the line goes
  document.addEventListener("keydown", (e) => { if (e.key === forward) show(at + 1); if (e.key === back) show(at - 1); });
  show(0);
})();
