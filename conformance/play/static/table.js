// The table page of one seat. It draws what the server sends for this seat and sends the
// person's choices back; every rule (what is legal, Elders, scores) comes from the server.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const tableId = location.pathname.split("/").pop();
  const VERB_RULES = { call: "CALL-4", pass: "CALL-3", claim: "CLAIM-1", continue: "CLAIM-1", tigers: "TIG-1", decline: "TIG-1" };
  const VERB_TEXT = { call: "Call", pass: "Pass", claim: "Claim victory", continue: "Play on", tigers: "Declare the Five Tigers", decline: "Decline" };
  const END_TEXT = { claim: "won by a claim", "five-tigers": "won by the Five Tigers", "played-out": "played out with no claim", void: "void: nobody called" };
  let links = {};
  let view = null;
  let selected = new Set();
  let ws = null;
  let retry = 0;
  let fatal = false;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function rule(id, text) {
    const info = links[id];
    if (!info) return el("span", "pl-rule", text || id);
    const a = el("a", "pl-rule", text || id);
    a.href = info.href; a.target = "_blank"; a.title = `${id} ${info.title}`;
    return a;
  }
  function seatName(s) {
    if (!view) return `seat ${s}`;
    const info = view.seats[s];
    return s === view.seat ? `You (seat ${s})` : `Seat ${s} · ${info.name}`;
  }

  // ---------------------------------------------------------------- connection
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(tableId)}?token=${encodeURIComponent(token)}`);
    ws.onopen = () => { retry = 0; $("conn").textContent = "connected"; $("conn").className = "pl-conn pl-ok"; };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "hello") { links = msg.links || {}; showInvite(msg.invite || []); }
      else if (msg.type === "view") { view = msg; hideError(); render(); }
      else if (msg.type === "error") { showError(msg); if (msg.kind === "forbidden") fatal = true; }
    };
    ws.onclose = (ev) => {
      $("conn").className = "pl-conn pl-bad";
      if (fatal || ev.code === 4403) { $("conn").textContent = "this link opens no seat"; return; }
      $("conn").textContent = "reconnecting…";
      retry = Math.min(retry + 1, 6);
      setTimeout(connect, 250 * 2 ** retry);
    };
  }
  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }
  function act(action) { selected.clear(); send({ type: "act", action }); }

  function showError(msg) {
    const box = $("error");
    box.hidden = false;
    box.replaceChildren(el("strong", "", msg.kind === "illegal" ? "Not allowed: " : "Refused: "), document.createTextNode(msg.message + " "));
    if (msg.rule) box.append(rule(msg.rule, `${msg.rule}${msg.title ? " " + msg.title : ""}`));
  }
  function hideError() { $("error").hidden = true; }
  function showInvite(list) {
    const others = list.filter((l) => String(l.seat) !== String(view ? view.seat : -1) && !l.url.includes(token));
    if (!others.length) return;
    $("invite").hidden = false;
    $("invite-links").replaceChildren(...others.map((l) => {
      const li = el("li"); const a = el("a", "", `seat ${l.seat}`); a.href = l.url; li.append(a); return li;
    }));
  }

  // ---------------------------------------------------------------- drawing
  function tags(h, s) {
    const box = el("span", "pl-tags");
    if (s === h.dealer) { const t = el("span", "pl-tag pl-tag-dealer", "Dealer "); t.append(rule("CALL-1", "CALL-1")); box.append(t); }
    if (s === h.dreamer) { const t = el("span", "pl-tag pl-tag-dreamer", "Dreamer "); t.append(rule("DEAL-2", "DEAL-2")); box.append(t); }
    if (s === h.privileged) { const t = el("span", "pl-tag pl-tag-pp", "Privileged Player "); t.append(rule("CALL-4", "CALL-4")); box.append(t); }
    return box;
  }
  function playText(entry, elders) {
    const box = el("div", "pl-play");
    const who = el("span", "pl-who", entry.seat === view.seat ? "You" : `Seat ${entry.seat}`);
    box.append(who);
    const [verb, ...rest] = entry.action.split(" ");
    if (verb === "play") box.append(HK.cards(rest, elders));
    else if (verb === "discard" && entry.count !== undefined) {
      const d = el("span", "pl-down", `discards ${entry.count} face down `); d.append(rule("PLAY-5")); box.append(d);
    } else if (verb === "discard") {
      const d = el("span", "pl-down-own"); d.append(document.createTextNode("discards "), HK.cards(rest, new Set(), { down: true })); box.append(d);
    } else box.append(el("span", "pl-verb", { call: "calls", pass: "passes", claim: "claims victory", continue: "plays on", tigers: "declares the Five Tigers", decline: "declines the Five Tigers" }[verb] || verb));
    return box;
  }
  function seatBox(s, pos) {
    const h = view.hand;
    const box = $(`pos-${pos}`);
    box.replaceChildren();
    box.classList.toggle("pl-turn", h.to_act === s && !view.ended);
    box.classList.toggle("pl-mine", s === view.seat);
    const name = el("div", "pl-name", seatName(s));
    if (!view.seats[s].human) name.classList.add("pl-bot");
    if (view.seats[s].human && s !== view.seat) name.append(el("span", view.seats[s].online ? "pl-dot pl-on" : "pl-dot", ""));
    box.append(name, tags(h, s));
    const info = el("div", "pl-info");
    if (s === h.dreamer) {
      info.append(document.createTextNode("sits out · "));
      if (h.dreamer_card && s !== view.seat) info.append(HK.cards([h.dreamer_card], new Set()));
      else if (s !== view.seat) info.append(el("span", "pl-backs", "1 card, face down"));
    } else if (s !== view.seat) {
      info.append(HK.back(h.hand_sizes[s]), document.createTextNode(" · "));
    }
    const tricks = el("span", "pl-tricks", `tricks ${h.tricks[s]} `);
    tricks.append(rule("PLAY-6"));
    if (s !== h.dreamer) info.append(tricks);
    info.append(el("span", "pl-score", ` · score ${view.game.scores[s]}`));
    box.append(info);
    if (h.to_act === s && !view.ended) box.append(el("div", "pl-toact", s === view.seat ? "your turn" : "to act…"));
  }
  function center(elders) {
    const h = view.hand;
    const box = $("center");
    box.replaceChildren();
    const rounds = h.rounds || [];
    const current = h.round || [];
    if (h.phase === "calling") {
      box.append(el("div", "pl-phase", "Calling "), rule("CALL-1"));
      const calls = h.history.filter((e) => e.action === "call" || e.action === "pass");
      for (const e of calls) box.append(playText(e, elders));
      return;
    }
    if (current.length) {
      const title = el("div", "pl-phase", "This round ");
      title.append(rule("PLAY-3"), document.createTextNode(" "), rule("PLAY-4"));
      box.append(title);
      for (const e of current) box.append(playText(e, elders));
    } else if (rounds.length) {
      const last = rounds[rounds.length - 1];
      const title = el("div", "pl-phase", `Last round: won by ${last.winner === view.seat ? "you" : "seat " + last.winner} `);
      title.append(rule("PLAY-6"));
      box.append(title);
      for (const e of h.history.slice(last.start, last.start + 3)) box.append(playText(e, elders));
    } else {
      box.append(el("div", "pl-phase", "Playing"));
    }
    if (h.phase === "claim") {
      const c = el("div", "pl-claimnote", `${h.to_act === view.seat ? "You" : "Seat " + h.to_act} may claim victory `);
      c.append(rule("CLAIM-1"));
      box.append(c);
    }
  }
  function legalCards(legal) {
    const set = new Set();
    if (!legal) return set;
    for (const a of legal.actions) if (a.startsWith("play ")) for (const c of a.slice(5).split(" ")) set.add(c);
    if (legal.discard) for (const c of HK.words(legal.discard.from)) set.add(c);
    return set;
  }
  function sameSet(a, b) { return a.size === b.size && [...a].every((x) => b.has(x)); }
  function myHand(elders) {
    const h = view.hand;
    const legal = h.legal;
    const playable = legalCards(legal);
    const box = $("hand");
    box.replaceChildren();
    const cards = HK.words(h.hand);
    for (const name of [...selected]) if (!cards.includes(name)) selected.delete(name);
    const row = el("div", "hk-cards pl-handcards");
    for (const name of cards) {
      const c = HK.card(name, { elder: elders.has(name) });
      if (playable.has(name)) c.classList.add("pl-legal");
      if (selected.has(name)) c.classList.add("pl-selected");
      if (legal && playable.has(name)) {
        c.tabIndex = 0;
        c.addEventListener("click", () => { selected.has(name) ? selected.delete(name) : selected.add(name); render(); });
      }
      row.append(c);
    }
    const label = el("div", "pl-label", h.seat === h.dreamer ? "Your card (you are the Dreamer and sit out this hand) " : "Your hand ");
    if (h.seat === h.dreamer) label.append(rule("DEAL-3"));
    box.append(label, row);
    if (h.claim_count !== undefined && h.phase !== "calling") {
      const cc = el("div", "pl-claimcount", `Tricks + Elders in hand: ${h.claim_count} (6 to claim) `);
      cc.append(rule("CLAIM-1"));
      box.append(cc);
    }
  }
  function actions() {
    const h = view.hand;
    const box = $("actions");
    box.replaceChildren();
    const legal = h.legal;
    if (!legal) return;
    const plays = legal.actions.filter((a) => a.startsWith("play "));
    for (const a of legal.actions) {
      if (a.startsWith("play ")) continue;
      const b = el("button", `pl-btn pl-verb-${a}`, VERB_TEXT[a] || a);
      b.dataset.verb = a;
      b.addEventListener("click", () => act(a));
      const wrap = el("span", "pl-btnwrap"); wrap.append(b, rule(VERB_RULES[a] || "GAME-2"));
      box.append(wrap);
    }
    if (plays.length || legal.discard) {
      const sel = [...selected];
      const match = plays.find((a) => sameSet(new Set(a.slice(5).split(" ")), selected));
      if (plays.length) {
        const pb = el("button", "pl-btn pl-primary", sel.length ? `Play ${sel.length} selected` : "Select cards to play");
        pb.id = "play-selected"; pb.disabled = !match;
        pb.addEventListener("click", () => match && act(match));
        box.append(pb);
      }
      if (legal.discard) {
        const from = new Set(HK.words(legal.discard.from));
        const ok = sel.length === legal.discard.count && sel.every((c) => from.has(c));
        const db = el("button", "pl-btn", `Discard ${legal.discard.count} face down`);
        db.id = "discard-selected"; db.disabled = !ok;
        db.addEventListener("click", () => ok && act("discard " + sel.join(" ")));
        const wrap = el("span", "pl-btnwrap"); wrap.append(db, rule("PLAY-4"));
        box.append(wrap);
        if (!plays.length) box.append(el("div", "pl-hint", `You cannot beat it: pick ${legal.discard.count} card(s) to discard.`));
      }
      if (plays.length) {
        const list = el("div", "pl-legallist");
        list.append(el("span", "pl-label", h.round && h.round.length ? "Plays that beat it: " : "You may lead: "));
        for (const a of plays) {
          const b = el("button", "pl-chip");
          b.dataset.action = a;
          b.append(HK.cards(a.slice(5).split(" "), new Set()));
          b.addEventListener("click", () => act(a));
          list.append(b);
        }
        box.append(list);
      }
    }
  }
  function status() {
    const h = view.hand;
    const box = $("status");
    box.replaceChildren();
    let text;
    if (view.game.over) text = "The game is over.";
    else if (view.ended) text = "The hand is over.";
    else if (h.to_act === view.seat) text = { calling: "Your turn: call or pass.", claim: "You won the round: claim victory or play on.", tigers: "You hold the Five Tigers." }[h.phase] || ((h.round || []).length ? "Your turn: beat the best play, or discard." : "Your turn: lead a Run, a Set or a Single.");
    else if (h.to_act === null || h.to_act === undefined) text = "";
    else text = `Waiting for seat ${h.to_act}…`;
    box.textContent = text;
    if (view.problem) box.append(el("div", "pl-error", view.problem));
  }
  function scores() {
    const g = view.game;
    const t = el("table", "pl-scores");
    const head = el("tr"); head.append(el("th", "", "hand"));
    for (let s = 0; s < 4; s++) head.append(el("th", s === view.seat ? "pl-me-col" : "", s === view.seat ? "you" : `seat ${s}`));
    t.append(head);
    g.results.forEach((r, i) => {
      const tr = el("tr"); tr.append(el("td", "pl-muted", `${i + 1} ${r.end === "claim" || r.end === "five-tigers" ? "" : "(" + r.end + ")"}`));
      r.deltas.forEach((d) => tr.append(el("td", d > 0 ? "pl-plus" : d < 0 ? "pl-minus" : "", d > 0 ? `+${d}` : `${d}`)));
      t.append(tr);
    });
    const tot = el("tr", "pl-total"); tot.append(el("td", "", "total"));
    g.scores.forEach((v) => tot.append(el("td", "", String(v))));
    t.append(tot);
    const p = el("p", "pl-muted", `Hands counted: ${g.hands_played} of ${g.hands_per_game} `);
    p.append(rule("GAME-1"), document.createTextNode(" "), rule("GAME-4"));
    $("scores").replaceChildren(t, p);
  }
  function history(elders) {
    const list = $("history");
    list.replaceChildren(...view.hand.history.map((e) => { const li = el("li"); li.append(playText(e, elders)); return li; }));
    list.scrollTop = list.scrollHeight;
  }
  function scoreTable(tricks) {
    const t = el("table", "pl-scoretable");
    const r1 = el("tr"); const r2 = el("tr");
    r1.append(el("th", "", "tricks")); r2.append(el("th", "", "points"));
    for (const [k, v] of Object.entries(view.score_table)) {
      r1.append(el("td", Number(k) === tricks ? "pl-hit" : "", k));
      r2.append(el("td", Number(k) === tricks ? "pl-hit" : "", String(v)));
    }
    t.append(r1, r2);
    return t;
  }
  function ended() {
    const box = $("ended");
    const h = view.hand;
    const r = h.result;
    if (!view.ended || !r) { box.hidden = true; return; }
    box.hidden = false;
    const panel = el("div", "pl-panel");
    panel.append(el("h2", "", view.game.over ? "The game is over" : `The hand is over: ${END_TEXT[r.end] || r.end}`));
    if (r.winner !== null && r.winner !== undefined) {
      const p = el("p", "", `${r.winner === view.seat ? "You" : "Seat " + r.winner} won with ${r.tricks} tricks `);
      p.append(rule(r.end === "five-tigers" ? "TIG-1" : "CLAIM-1"), document.createTextNode(" "), rule("SCORE-1"));
      panel.append(p, scoreTable(r.tricks));
      const d = el("p", "", `The Dreamer (seat ${h.dreamer}) held `);
      if (h.dreamer_card) d.append(HK.cards([h.dreamer_card], new Set()));
      d.append(document.createTextNode(` and counts ${r.dreamer_count} `), rule("SCORE-4"), document.createTextNode(" "), rule("SCORE-5"));
      panel.append(d);
      if (h.privileged !== null && h.privileged !== r.winner) {
        const pp = el("p", "", `The Privileged Player (seat ${h.privileged}) lost and pays for the losers `);
        pp.append(rule("SCORE-6")); panel.append(pp);
      }
    } else {
      const p = el("p", "", r.end === "void" ? "Nobody called: the hand is void " : "Nobody claimed: the hand scores nothing ");
      p.append(rule(r.end === "void" ? "CALL-6" : "PLAY-8")); panel.append(p);
    }
    const t = el("table", "pl-deltas");
    const hr = el("tr"); const dr = el("tr"); const tr = el("tr");
    hr.append(el("th", "", "")); dr.append(el("th", "", "this hand")); tr.append(el("th", "", "game"));
    for (let s = 0; s < 4; s++) {
      hr.append(el("th", s === view.seat ? "pl-me-col" : "", s === view.seat ? "you" : `seat ${s}`));
      const d = r.deltas[s];
      dr.append(el("td", d > 0 ? "pl-plus" : d < 0 ? "pl-minus" : "", d > 0 ? `+${d}` : String(d)));
      tr.append(el("td", "pl-total", String(view.game.scores[s])));
    }
    t.append(hr, dr, tr);
    const sp = el("p", "pl-muted", "Every point won is paid by another seat "); sp.append(rule("SCORE-7"));
    panel.append(t, sp);
    if (!view.game.over && view.waiting.includes(view.seat)) {
      const b = el("button", "pl-btn pl-primary", "Next hand");
      b.id = "next-hand";
      b.addEventListener("click", () => send({ type: "next" }));
      panel.append(b);
    } else if (!view.game.over) {
      panel.append(el("p", "pl-muted", "Waiting for the other players…"));
    } else {
      const a = el("a", "pl-btn pl-primary", "Start a new table"); a.href = "/"; panel.append(a);
    }
    box.replaceChildren(panel);
  }
  function render() {
    if (!view) return;
    const h = view.hand;
    const elders = new Set(HK.words(h.elders));
    const me = view.seat;
    seatBox(me, "bottom"); seatBox((me + 1) % 4, "right"); seatBox((me + 2) % 4, "top"); seatBox((me + 3) % 4, "left");
    center(elders);
    myHand(elders);
    actions();
    status();
    scores();
    history(elders);
    $("elders").replaceChildren(HK.cards(HK.words(h.elders), elders));
    $("elder-rules").replaceChildren(rule("ELD-1"), document.createTextNode(" "), rule("ELD-2"));
    const opts = Object.entries(view.options).map(([k, v]) => `${k}=${v}`).join(", ");
    $("options").textContent = opts ? `options: ${opts}` : "default rules";
    const g = view.game;
    const last = g.results.length ? g.results[g.results.length - 1] : null;
    $("hand-no").textContent = g.over ? "game over"
      : view.ended && last && last.counts ? `hand ${g.hands_played} of ${g.hands_per_game} is over`
      : view.ended ? `hand ${g.hands_played + 1} of ${g.hands_per_game}: not counted, dealt again`
      : `hand ${g.hands_played + 1} of ${g.hands_per_game}`;
    ended();
    document.body.dataset.phase = view.ended ? "ended" : h.phase;
    document.body.dataset.version = String(view.version);
    document.body.dataset.toAct = h.to_act === view.seat && h.legal ? "me" : "other";
  }
  connect();
})();
