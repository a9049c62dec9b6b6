// A kept game's page (/game/<id>): who played, the scores, its replay, its trace, each hand as a scenario.
// Names are the players' own text: written with textContent only, never as markup.
"use strict";
(async () => {
  const _ = HK.t;
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
  const BOTS = { "rule-aware bot": _("rule-aware bot"), "random bot": _("random bot") };
  const END_TEXT = { claim: _("won by a claim"), "five-tigers": _("won by the Five Tigers"), "played-out": _("played out with no claim"), void: _("void: nobody called") };
  const gameId = location.pathname.split("/").pop();
  const answer = await fetch(`/api/games/${encodeURIComponent(gameId)}`);
  const game = await answer.json();
  if (!answer.ok) { $("error").hidden = false; $("error").textContent = game.error; return; }

  function who(seat) {
    const s = game.seats[seat];
    if (s.name) return s.name;
    if (s.bot) return BOTS[s.bot] || s.bot;
    return s.left ? _("a player who left") : _("player");
  }
  $("when").textContent = _("Finished {when} · seed {seed} · {options}", {
    when: new Date(game.finished * 1000).toLocaleString(HK.lang), seed: game.seed,
    options: Object.entries(game.options).map(([k, v]) => `${k}=${v}`).join(", ") || _("default rules") });
  $("share").textContent = location.href;
  const head = el("tr"); const total = el("tr", "pl-total");
  head.append(el("th", "", "")); total.append(el("td", "", _("total")));
  game.seats.forEach((s, i) => {
    const th = el("th", ""); th.append(el("span", "", _("Seat {seat}", { seat: i })), el("br"));
    const name = el("bdi", "pl-name", who(i)); th.append(name); head.append(th);
    total.append(el("td", "", String(game.scores[i])));
  });
  $("players").replaceChildren(head, total);
  $("replay").href = game.replay;
  $("trace").href = game.trace;
  $("hands").replaceChildren(...game.hands.map((h, i) => {
    const li = el("li");
    const r = h.result;
    const how = r ? (END_TEXT[r.end] || r.end) : _("not finished");
    li.append(el("span", "", _("Dealer: seat {seat} · {how}", { seat: h.dealer, how }) + " "));
    const a = el("a", "pl-btn pl-small", _("Download as a regression scenario (YAML)"));
    a.href = game.scenarios[i]; a.setAttribute("download", "");
    li.append(a);
    return li;
  }));
})();
