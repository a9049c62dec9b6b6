// Cards drawn as the rulebook draws them (docs/_ext/hakka_render.py card_html), styled by cards.css.
"use strict";
const HK = (() => {
  const SUITS = { Sup: "sup", Gon: "gon", Zok: "zok", Sin: "sin" };
  function parse(name) {
    if (name === "WanSin") return { name, suit: null, number: 1, cls: "wan", label: "Wan" };
    const m = /^(Sup|Gon|Zok|Sin)([1-9])$/.exec(name);
    if (!m) return null;
    return { name, suit: m[1], number: Number(m[2]), cls: SUITS[m[1]], label: m[1] };
  }
  function words(text) { return (text || "").split(/\s+/).filter(Boolean); }
  function card(name, opts = {}) {
    const c = parse(name);
    const el = document.createElement("span");
    if (!c) { el.textContent = name; return el; }
    el.className = `hk-card hk-${c.cls}` + (opts.elder ? " hk-elder" : "") + (opts.down ? " hk-down" : "");
    el.dataset.card = name;
    let spoken = c.suit ? `${c.suit} ${c.number}` : "Wan Sin";
    if (opts.elder) spoken += ", Elder";
    el.title = spoken;
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", spoken);
    el.innerHTML = `<span class="hk-num" aria-hidden="true">${c.number}</span><span class="hk-suit" aria-hidden="true">${c.label}</span>`
      + (opts.elder ? '<span class="hk-star" aria-hidden="true">★</span>' : "");
    return el;
  }
  function cards(text, elders = new Set(), opts = {}) {
    const box = document.createElement("span");
    box.className = "hk-cards";
    const list = Array.isArray(text) ? text : words(text);
    if (!list.length) { box.className = "hk-nocards"; box.textContent = opts.empty || "no cards"; }
    for (const n of list) box.appendChild(card(n, { elder: elders.has(n), down: opts.down }));
    return box;
  }
  function back(count) {
    const box = document.createElement("span");
    box.className = "pl-backs";
    box.textContent = `${count} card${count === 1 ? "" : "s"}`;
    return box;
  }
  return { parse, words, card, cards, back };
})();
