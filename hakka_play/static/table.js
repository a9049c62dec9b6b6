// The table page of one seat. It draws what the server sends for this seat and sends the
// person's choices back; every rule (what is legal, Elders, scores) comes from the server.
// Every word is a message of locale/table.pot, translated by HK.t (cards.js).
"use strict";
(() => {
  const _ = HK.t;
  const ngettext = HK.n;  // gettext's plural forms: the count chooses the form in the page's language
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const token = params.get("token") || "";
  const watch = params.get("watch") || "";  // a spectator's link: the public view, no seat
  const tableId = location.pathname.split("/").pop();
  const VERB_RULES = { call: "CALL-4", pass: "CALL-3", claim: "CLAIM-1", continue: "CLAIM-1", tigers: "TIG-1", decline: "TIG-1" };
  const VERB_TEXT = { call: _("Call"), pass: _("Pass"), claim: _("Claim victory"), continue: _("Play on"), tigers: _("Declare the Five Tigers"), decline: _("Decline") };
  // what a seat did, in the first person for the seat's own moves (every language conjugates)
  const YOU_DID = { call: _("You call"), pass: _("You pass"), claim: _("You claim victory"), continue: _("You play on"), tigers: _("You declare the Five Tigers"), decline: _("You decline the Five Tigers") };
  const SEAT_DID = { call: _("Seat {seat} calls"), pass: _("Seat {seat} passes"), claim: _("Seat {seat} claims victory"), continue: _("Seat {seat} plays on"), tigers: _("Seat {seat} declares the Five Tigers"), decline: _("Seat {seat} declines the Five Tigers") };
  const END_TEXT = { claim: _("won by a claim"), "five-tigers": _("won by the Five Tigers"), "played-out": _("played out with no claim"), void: _("void: nobody called") };
  const NAMES = { player: _("player"), "rule-aware bot": _("rule-aware bot"), "random bot": _("random bot"), "IS-MCTS bot": _("IS-MCTS bot"), "trained policy": _("trained policy") };
  let links = {};
  let view = null;
  let selected = new Set();
  let ws = null;
  let fatal = false;
  let leftMessage = null;  // the server's words when this seat left the table (shown, not retried)
  let seenHistory = -1;   // history entries already drawn (new ones are animated)
  let seenRounds = -1;    // rounds whose winner was already shown

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
    a.href = info.href; a.target = "_blank"; a.title = `${id} ${info.title}`; a.dir = "auto";  // the rulebook of the page's language
    return a;
  }
  const seatWord = (s) => _("Seat {seat}", { seat: s });
  const who = (s) => (s === view.seat ? _("You") : seatWord(s));
  function seatName(s) {
    const info = view.seats[s];
    return s === view.seat ? _("You (seat {seat})", { seat: s }) : `${seatWord(s)} · ${info.display || NAMES[info.name] || info.name}${presence(info)}`;
  }
  // A person the clock gave to a bot, or who left: said beside their name.
  function presence(info) {
    if (info.left) return " · " + _("left: a bot plays");
    return info.away ? " · " + _("away: a bot plays for now") : "";
  }

  // ---------------------------------------------------------------- connection
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(tableId)}?${socketQuery()}&lang=${HK.lang}`);
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "hello") { links = msg.links || {}; showInvite(msg.invite || []); showWatch(msg.watch); reconnected(); }
      else if (msg.type === "left") { fatal = true; leftMessage = msg.message; $("conn").textContent = msg.message; }
      else if (msg.type === "invite") showInvite(msg.invite || []);
      else if (msg.type === "view") { view = msg; hideError(); render(); }
      else if (msg.type === "error") { showError(msg); if (msg.kind === "forbidden") fatal = true; }
    };
    ws.onclose = (ev) => dropped(fatal || ev.code === 4403);
  }
  function socketQuery() {
    return watch ? `watch=${encodeURIComponent(watch)}` : `token=${encodeURIComponent(token)}`;
  }

  // ---------------------------------------------------------------- reconnecting
  // A dropped connection is tried again by itself, after 0.5 s, 1 s, 2 s, … at most 15 s apart, each wait
  // drawn between half and all of that (so that the pages of a restarted server do not all knock at once).
  // Until the seat's view is back, the header counts down to the next try and offers to try now, and the
  // table is dimmed and its buttons do nothing: a click would be lost. The browser coming back online, or
  // the page coming back to the front, tries at once.
  const RETRY_FIRST = 500;
  const RETRY_MOST = 15000;
  let attempt = 0;        // tries since the last connection the server welcomed
  let retryAt = 0;        // when the next try starts (Date.now()), 0 when none is waiting
  let retryTimer = null;
  let tick = null;        // the countdown's interval
  function connState(cls, text, offline) {
    $("conn").className = `pl-conn ${cls}`;
    $("conn").textContent = text;
    document.body.classList.toggle("pl-offline", offline);
    $("offline").hidden = !offline;
    $("reconnect-now").hidden = !offline || retryTimer === null;
  }
  function reconnected() {
    attempt = 0;
    connState("pl-ok", _("connected"), false);
  }
  function dropped(refused) {
    if (refused) { connState("pl-bad", leftMessage || _("this link opens no seat"), false); return; }
    if (retryTimer !== null) return;  // a try is already waiting
    attempt += 1;
    const ceiling = Math.min(RETRY_MOST, RETRY_FIRST * 2 ** (attempt - 1));
    const wait = ceiling / 2 + Math.random() * ceiling / 2;
    retryAt = Date.now() + wait;
    retryTimer = setTimeout(retryNow, wait);
    clearInterval(tick);
    tick = setInterval(showRetry, 250);
    showRetry();
  }
  function showRetry() {  // the header: when the next try starts, or that one is under way
    const seconds = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
    connState("pl-bad pl-retrying", retryTimer === null ? _("reconnecting (attempt {n})…", { n: attempt })
      : _("connection lost: trying again in {seconds} s (attempt {n})", { seconds, n: attempt }), true);
  }
  function retryNow() {
    if (retryTimer === null && ws && ws.readyState !== WebSocket.CLOSED) return;  // a try is under way
    clearTimeout(retryTimer); retryTimer = null;
    clearInterval(tick); tick = null;
    showRetry();
    connect();
  }
  function whenBack() {  // the network or the page came back: a waiting try starts now
    if (retryTimer !== null) retryNow();
  }
  $("reconnect-now").addEventListener("click", retryNow);
  window.addEventListener("online", whenBack);
  window.addEventListener("offline", () => { if (ws && ws.readyState === WebSocket.OPEN) ws.close(4000, "the browser is offline"); });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) whenBack(); });

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }
  function act(action) { selected.clear(); send({ type: "act", action }); }

  function showError(msg) {
    const box = $("error");
    box.hidden = false;
    box.replaceChildren(el("strong", "", msg.kind === "illegal" ? _("Not allowed:") : _("Refused:")), document.createTextNode(" " + msg.message + " "));
    if (msg.rule) box.append(rule(msg.rule, `${msg.rule}${msg.title ? " " + msg.title : ""}`));
    if (msg.statement) {
      const q = el("blockquote", "pl-statement", msg.statement.text);
      q.lang = msg.statement.lang; q.dir = "auto"; box.append(q);
    }
    if (msg.detail) {  // the engine's own words are English: folded away, the clause above says why in the page's language
      const d = el("details", "pl-detail"); d.append(el("summary", "", _("The engine says (in English):")));
      const words = el("span", "", msg.detail); words.lang = "en"; words.dir = "ltr"; d.append(words); box.append(d);
    }
    box.scrollIntoView({ block: "nearest" });  // a refused try shows why, where the player looks
  }
  function hideError() { $("error").hidden = true; }
  function showInvite(list) {
    $("invite").hidden = !list.length;
    $("invite-links").replaceChildren(...list.map((l) => {
      const li = el("li"); const a = el("a", "", seatWord(l.seat)); a.href = l.url;
      const url = el("code", "pl-url", `${location.origin}${l.url}`); url.dir = "ltr";
      li.append(a, document.createTextNode(" "), url); return li;
    }));
  }

  // ---------------------------------------------------------------- drawing
  function tags(h, s) {
    const box = el("span", "pl-tags");
    const tag = (cls, text, id) => { const t = el("span", `pl-tag ${cls}`, text + " "); t.append(rule(id)); box.append(t); };
    if (s === h.dealer) tag("pl-tag-dealer", _("Dealer"), "CALL-1");
    if (s === h.dreamer) tag("pl-tag-dreamer", _("Dreamer"), "DEAL-2");
    if (s === h.privileged) tag("pl-tag-pp", _("Privileged Player"), "CALL-4");
    return box;
  }
  function playText(entry, elders, fresh) {
    const box = el("div", "pl-play" + (fresh ? " pl-new" : ""));
    const mine = entry.seat === view.seat;
    const at = { seat: entry.seat, count: entry.count };
    const [verb, ...rest] = entry.action.split(" ");
    if (verb === "play") box.append(el("span", "pl-who", who(entry.seat)), HK.cards(rest, elders));
    else if (verb === "discard" && entry.count !== undefined) {
      const d = el("span", "pl-down", (mine
        ? ngettext("You discard {count} card face down", "You discard {count} cards face down", entry.count, at)
        : ngettext("Seat {seat} discards {count} card face down", "Seat {seat} discards {count} cards face down", entry.count, at)) + " ");
      d.append(rule("PLAY-5")); box.append(d);
    } else if (verb === "discard") {
      const d = el("span", "pl-down-own");
      d.append(document.createTextNode((mine ? _("You discard") : _("Seat {seat} discards", at)) + " "), HK.cards(rest, new Set(), { down: true }));
      box.append(d);
    } else box.append(el("span", "pl-verb", mine ? (YOU_DID[verb] || verb) : SEAT_DID[verb] ? _(SEAT_DID[verb], at) : `${seatWord(entry.seat)} ${verb}`));
    return box;
  }
  function seatBox(s, pos, wonNow) {
    const h = view.hand;
    const box = $(`pos-${pos}`);
    box.replaceChildren();
    box.dataset.seat = String(s);
    box.classList.toggle("pl-turn", h.to_act === s && !view.ended);
    box.classList.toggle("pl-mine", s === view.seat);
    box.classList.toggle("pl-won", wonNow === s);
    const name = el("div", "pl-name", seatName(s));
    if (!view.seats[s].human) name.classList.add("pl-bot");
    if (view.seats[s].human && s !== view.seat) name.append(el("span", view.seats[s].online ? "pl-dot pl-on" : "pl-dot", ""));
    box.append(name, tags(h, s));
    const info = el("div", "pl-info");
    if (s === h.dreamer) {
      info.append(document.createTextNode(_("sits out") + " · "));
      if (h.dreamer_card && s !== view.seat) info.append(HK.cards([h.dreamer_card], new Set()));
      else if (s !== view.seat) info.append(HK.back(1));
    } else if (s !== view.seat) {
      info.append(HK.back(h.hand_sizes[s]), document.createTextNode(" · "));
    }
    const tricks = el("span", "pl-tricks", ngettext("{count} trick", "{count} tricks", h.tricks[s], { count: h.tricks[s] }) + " ");
    tricks.append(rule("PLAY-6"));
    if (s !== h.dreamer) info.append(tricks);
    info.append(el("span", "pl-score", " · " + _("score {score}", { score: view.game.scores[s] })));
    box.append(info);
    if (h.to_act === s && !view.ended) box.append(el("div", "pl-toact", s === view.seat ? _("your turn") : _("to act…")));
  }
  function center(elders, fresh) {
    const h = view.hand;
    const box = $("center");
    box.replaceChildren();
    const rounds = h.rounds || [];
    const current = h.round || [];
    if (h.phase === "calling") {
      box.append(el("div", "pl-phase", _("Calling") + " "), rule("CALL-1"));
      h.history.forEach((e, i) => { if (e.action === "call" || e.action === "pass") box.append(playText(e, elders, fresh.has(i))); });
      return;
    }
    if (current.length) {
      const title = el("div", "pl-phase", _("This round") + " ");
      title.append(rule("PLAY-3"), document.createTextNode(" "), rule("PLAY-4"));
      box.append(title);
      const start = h.history.length - current.length;  // the round is the end of the history
      current.forEach((e, i) => box.append(playText(e, elders, fresh.has(start + i))));
    } else if (rounds.length) {
      const last = rounds[rounds.length - 1];
      const title = el("div", "pl-phase pl-roundwon", (last.winner === view.seat ? _("Last round: you won it") : _("Last round: won by seat {seat}", { seat: last.winner })) + " ");
      title.append(rule("PLAY-6"));
      box.append(title);
      h.history.slice(last.start, last.start + 3).forEach((e, i) => box.append(playText(e, elders, fresh.has(last.start + i))));
    } else {
      box.append(el("div", "pl-phase", _("Playing")));
    }
    if (h.phase === "claim") {
      const c = el("div", "pl-claimnote", (h.to_act === view.seat ? _("You may claim victory") : _("Seat {seat} may claim victory", { seat: h.to_act })) + " ");
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
      if (legal && (playable.size || legal.discard)) {  // an illegal card may be tried: the refusal says why
        c.tabIndex = 0;
        c.addEventListener("click", () => { selected.has(name) ? selected.delete(name) : selected.add(name); render(); });
      }
      row.append(c);
    }
    const dreamer = h.seat === h.dreamer;
    const label = el("div", "pl-label", (dreamer ? _("Your card (you are the Dreamer and sit out this hand)") : _("Your hand")) + " ");
    if (dreamer) label.append(rule("DEAL-3"));
    box.append(label, row);
    if (h.claim_count !== undefined && h.phase !== "calling") {
      const cc = el("div", "pl-claimcount", _("Tricks + Elders in hand: {count} (6 to claim)", { count: h.claim_count }) + " ");
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
    if (!plays.length && !legal.discard) return;
    const sel = [...selected];
    const match = plays.find((a) => sameSet(new Set(a.slice(5).split(" ")), selected));
    if (plays.length) {
      const pb = el("button", "pl-btn pl-primary", sel.length ? ngettext("Play the {count} selected card", "Play the {count} selected cards", sel.length, { count: sel.length }) : _("Select cards to play"));
      pb.id = "play-selected"; pb.disabled = !sel.length;
      // a selection that is no legal play is still sent when asked: the engine's refusal, with its clause, shows why
      if (sel.length && !match) { pb.classList.add("pl-try"); pb.title = _("Not a legal play: play it to see the rule that refuses it"); }
      pb.addEventListener("click", () => act(match || "play " + sel.join(" ")));
      box.append(pb);
    }
    if (legal.discard) {
      const from = new Set(HK.words(legal.discard.from));
      const ok = sel.length === legal.discard.count && sel.every((c) => from.has(c));
      const db = el("button", "pl-btn", ngettext("Discard {count} card face down", "Discard {count} cards face down", legal.discard.count, { count: legal.discard.count }));
      db.id = "discard-selected"; db.disabled = !sel.length;
      if (sel.length && !ok) db.classList.add("pl-try");
      db.addEventListener("click", () => act("discard " + sel.join(" ")));
      const wrap = el("span", "pl-btnwrap"); wrap.append(db, rule("PLAY-4"));
      box.append(wrap);
      if (!plays.length) box.append(el("div", "pl-hint", ngettext("You cannot beat it: pick {count} card to discard.", "You cannot beat it: pick {count} cards to discard.", legal.discard.count, { count: legal.discard.count })));
    }
    if (plays.length) {
      const list = el("div", "pl-legallist");
      list.append(el("span", "pl-label", (h.round && h.round.length ? _("Plays that beat it:") : _("You may lead:")) + " "));
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
  function status() {
    const h = view.hand;
    const box = $("status");
    box.replaceChildren();
    const TURN = { calling: _("Your turn: call or pass."), claim: _("You won the round: claim victory or play on."), tigers: _("You hold the Five Tigers.") };
    let text = "";
    if (view.game.over) text = _("The game is over.");
    else if (view.ended) text = _("The hand is over.");
    else if (h.to_act === view.seat) text = TURN[h.phase] || ((h.round || []).length ? _("Your turn: beat the best play, or discard.") : _("Your turn: lead a Run, a Set or a Single."));
    else if (h.to_act !== null && h.to_act !== undefined) text = _("Waiting for seat {seat}…", { seat: h.to_act });
    box.textContent = text;
    if (view.problem) box.append(el("div", "pl-error", view.problem));
  }
  const colName = (s) => (s === view.seat ? _("you") : seatWord(s));
  const signed = (d) => HK.num(d, { signed: true });  // "+3", "-3" (Arabic: "+٣", "؜-٣"): one form everywhere
  const sign = (d) => (d > 0 ? "pl-plus" : d < 0 ? "pl-minus" : "");
  function scores() {
    const g = view.game;
    const t = el("table", "pl-scores");
    const head = el("tr"); head.append(el("th", "", _("hand")));
    for (let s = 0; s < 4; s++) head.append(el("th", s === view.seat ? "pl-me-col" : "", colName(s)));
    t.append(head);
    g.results.forEach((r, i) => {
      const tr = el("tr"); tr.append(el("td", "pl-muted", `${HK.num(i + 1)} ${r.end === "claim" || r.end === "five-tigers" ? "" : "(" + (END_TEXT[r.end] || r.end) + ")"}`));
      r.deltas.forEach((d) => tr.append(el("td", sign(d), signed(d))));
      t.append(tr);
    });
    const tot = el("tr", "pl-total"); tot.append(el("td", "", _("total")));
    g.scores.forEach((v) => tot.append(el("td", "", HK.num(v))));
    t.append(tot);
    const p = el("p", "pl-muted", _("Hands counted: {played} of {total}", { played: g.hands_played, total: g.hands_per_game }) + " ");
    p.append(rule("GAME-1"), document.createTextNode(" "), rule("GAME-4"));
    $("scores").replaceChildren(t, p);
  }
  function history(elders, fresh) {
    const list = $("history");
    list.replaceChildren(...view.hand.history.map((e, i) => { const li = el("li"); li.append(playText(e, elders, fresh.has(i))); return li; }));
    list.scrollTop = list.scrollHeight;
  }
  function scoreTable(tricks) {
    const t = el("table", "pl-scoretable");
    const r1 = el("tr"); const r2 = el("tr");
    r1.append(el("th", "", _("tricks"))); r2.append(el("th", "", _("points")));
    for (const [k, v] of Object.entries(view.score_table)) {
      r1.append(el("td", Number(k) === tricks ? "pl-hit" : "", HK.num(Number(k))));
      r2.append(el("td", Number(k) === tricks ? "pl-hit" : "", HK.num(v)));
    }
    t.append(r1, r2);
    return t;
  }
  function winnerPanel(panel, h, r) {
    const won = { seat: r.winner, count: r.tricks };
    const p = el("p", "", (r.winner === view.seat ? ngettext("You won with {count} trick", "You won with {count} tricks", r.tricks, won)
      : ngettext("Seat {seat} won with {count} trick", "Seat {seat} won with {count} tricks", r.tricks, won)) + " ");
    p.append(rule(r.end === "five-tigers" ? "TIG-1" : "CLAIM-1"), document.createTextNode(" "), rule("SCORE-1"));
    panel.append(p, scoreTable(r.tricks));
    const d = el("p", "", _("The Dreamer (seat {seat}) held", { seat: h.dreamer }) + " ");
    if (h.dreamer_card) d.append(HK.cards([h.dreamer_card], new Set()));
    d.append(document.createTextNode(" " + _("and counts {count}", { count: r.dreamer_count }) + " "), rule("SCORE-4"), document.createTextNode(" "), rule("SCORE-5"));
    panel.append(d);
    if (h.privileged !== null && h.privileged !== r.winner) {
      const pp = el("p", "", _("The Privileged Player (seat {seat}) lost and pays for the losers", { seat: h.privileged }) + " ");
      pp.append(rule("SCORE-6")); panel.append(pp);
    }
  }
  function ended() {
    const box = $("ended");
    const h = view.hand;
    const r = h.result;
    if (!view.ended || !r) { box.hidden = true; return; }
    box.hidden = false;
    const panel = el("div", "pl-panel");
    panel.append(el("h2", "", view.game.over ? _("The game is over") : _("The hand is over: {how}", { how: END_TEXT[r.end] || r.end })));
    if (r.winner !== null && r.winner !== undefined) winnerPanel(panel, h, r);
    else {
      const p = el("p", "", (r.end === "void" ? _("Nobody called: the hand is void") : _("Nobody claimed: the hand scores nothing")) + " ");
      p.append(rule(r.end === "void" ? "CALL-6" : "PLAY-8")); panel.append(p);
    }
    const t = el("table", "pl-deltas");
    const hr = el("tr"); const dr = el("tr"); const tr = el("tr");
    hr.append(el("th", "", "")); dr.append(el("th", "", _("this hand"))); tr.append(el("th", "", _("game")));
    for (let s = 0; s < 4; s++) {
      hr.append(el("th", s === view.seat ? "pl-me-col" : "", colName(s)));
      dr.append(el("td", sign(r.deltas[s]), signed(r.deltas[s])));
      tr.append(el("td", "pl-total", HK.num(view.game.scores[s])));
    }
    t.append(hr, dr, tr);
    const sp = el("p", "pl-muted", _("Every point won is paid by another seat") + " "); sp.append(rule("SCORE-7"));
    panel.append(t, sp);
    if (!view.game.over && view.waiting.includes(view.seat)) {
      const b = el("button", "pl-btn pl-primary", _("Next hand"));
      b.id = "next-hand";
      b.addEventListener("click", () => send({ type: "next" }));
      panel.append(b);
    } else if (!view.game.over) {
      panel.append(el("p", "pl-muted", _("Waiting for the other players…")));
    } else {
      const a = el("a", "pl-btn pl-primary", _("Start a new table")); a.href = "/"; panel.append(a);
    }
    box.replaceChildren(panel);
  }
  function handNumber(g) {
    const last = g.results.length ? g.results[g.results.length - 1] : null;
    const at = { n: g.hands_played + 1, total: g.hands_per_game };
    if (g.over) return _("game over");
    if (view.ended && last && last.counts) return _("hand {n} of {total} is over", { n: g.hands_played, total: g.hands_per_game });
    if (view.ended) return _("hand {n} of {total}: not counted, dealt again", at);
    return _("hand {n} of {total}", at);
  }
  // What is new since the last view: history entries to animate, a round just won.
  function news() {
    const h = view.hand;
    const fresh = new Set();
    if (seenHistory >= 0 && h.history.length > seenHistory) for (let i = seenHistory; i < h.history.length; i++) fresh.add(i);
    const rounds = h.rounds || [];
    const won = rounds.filter((r) => r.winner !== null && r.winner !== undefined);
    const wonNow = seenRounds >= 0 && won.length > seenRounds ? won[won.length - 1].winner : null;
    seenHistory = h.history.length; seenRounds = won.length;
    return { fresh, wonNow };
  }
  function render() {
    if (!view) return;
    const h = view.hand;
    const elders = new Set(HK.words(h.elders));
    const me = view.seat === null ? 0 : view.seat;  // a spectator sees the table from seat 0's side
    const { fresh, wonNow } = news();
    seatBox(me, "bottom", wonNow); seatBox((me + 1) % 4, "right", wonNow); seatBox((me + 2) % 4, "top", wonNow); seatBox((me + 3) % 4, "left", wonNow);
    center(elders, fresh);
    myHand(elders);
    actions();
    status();
    scores();
    history(elders, fresh);
    $("elders").replaceChildren(HK.cards(HK.words(h.elders), elders));
    $("elder-rules").replaceChildren(rule("ELD-1"), document.createTextNode(" "), rule("ELD-2"));
    const opts = Object.entries(view.options).map(([k, v]) => `\u2066${k}=${v}\u2069`).join(", ");  // notation, isolated
    $("options").textContent = opts ? _("options: {options}", { options: opts }) : _("default rules");
    $("hand-no").textContent = handNumber(view.game);
    ended();
    document.body.dataset.phase = view.ended ? "ended" : h.phase;
    document.body.dataset.version = String(view.version);
    document.body.dataset.toAct = h.to_act === view.seat && h.legal ? "me" : "other";
    spectating();
    clock();
    away();
    kept();
  }
  // ---------------------------------------------------------------- coming and going
  // A spectator: no hand, no actions, no leaving; the header says what they see.
  function spectating() {
    const watching = view.seat === null;
    document.body.classList.toggle("pl-spectator", watching);
    $("mine").hidden = watching;
    $("leave").hidden = watching || !view.seats[view.seat].human;
    $("watching").hidden = !watching;
  }
  // The turn clock: whose time runs, counted down here from what the server said was left.
  let clockTimer = null;
  function clock() {
    const box = $("clock");
    clearInterval(clockTimer);
    const c = view.clock;
    if (!c || !c.seats.length || c.ends_in === null) { box.hidden = true; return; }
    const ends = Date.now() + c.ends_in * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      const mine = c.seats.includes(view.seat);
      box.textContent = mine ? _("your time: {seconds} s", { seconds: left })
        : _("{who}: {seconds} s left", { who: c.seats.map(seatWord).join(", "), seconds: left });
      box.classList.toggle("pl-hurry", mine && left <= 10);
    };
    box.hidden = false;
    tick();
    clockTimer = setInterval(tick, 1000);
  }
  // The clock gave this seat to a bot: say so, and offer to take it back.
  function away() {
    const box = $("away");
    const mine = view.seat !== null && view.seats[view.seat].away;
    box.hidden = !mine;
    if (mine && !view.problem) $("status").textContent = "";  // not "your turn": the banner says who plays
    if (!mine || $("back")) return;  // drawn once: a click is never lost to a redraw
    const b = el("button", "pl-btn pl-primary", _("I'm back"));
    b.id = "back";
    b.addEventListener("click", () => send({ type: "back" }));
    box.replaceChildren(el("span", "", _("Your time ran out: a bot is playing for you until you come back.") + " "), b);
  }
  function leave() {
    if (!confirm(_("Leave the table? A bot takes your seat for the rest of the game, and your link will open nothing."))) return;
    fatal = true;  // the server closes this connection: no reconnecting
    send({ type: "leave" });
  }
  function showWatch(url) {
    $("watch").hidden = !url;
    if (url) { const code = el("code", "pl-url", `${location.origin}${url}`); code.dir = "ltr"; $("watch-link").replaceChildren(code); }
  }
  // A finished game is kept: its page (replay, trace, scenarios) is linked.
  function kept() {
    const a = $("kept");
    a.hidden = !view.kept;
    if (view.kept) a.href = view.kept;
  }
  // The rule badges: shown by default (each links its clause), hidden by a casual player's choice, remembered.
  function badges() {
    const box = $("show-rules");
    box.checked = localStorage.getItem("hakka_rules") !== "hidden";
    document.body.classList.toggle("pl-no-rules", !box.checked);
    box.addEventListener("change", () => {
      localStorage.setItem("hakka_rules", box.checked ? "shown" : "hidden");
      document.body.classList.toggle("pl-no-rules", !box.checked);
    });
  }
  $("felt").setAttribute("aria-label", _("the table"));
  $("mine").setAttribute("aria-label", _("your hand"));
  badges();
  $("leave").addEventListener("click", leave);
  connect();
})();
