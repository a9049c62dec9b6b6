// Cards drawn as the rulebook draws them (docs/_ext/hakka_render.py card_html), styled by cards.css,
// and the pages' words: HK.t(message, params) translates an English message with the catalog the
// server put in the page (#hk-i18n, from locale/<lang>/LC_MESSAGES/table.po). Card notation (Sup3)
// never changes; a card's face shows its suit's name in the page's language (the seed's own words).
// HK.n(singular, plural, count, params) is gettext's ngettext: the form of the page's language for that
// count (its Plural-Forms, from spec/languages.yaml). Every number a message shows is written in the
// page's numerals (HK.num): Eastern Arabic digits on the Arabic pages, as in the seed and the Arabic
// rulebook, Western digits elsewhere (hakka_play/i18n.py number() writes the server's messages alike).
"use strict";
const HK = (() => {
  const script = document.getElementById("hk-i18n");
  const I18N = script ? JSON.parse(script.textContent || "{}") : {};
  const MESSAGES = I18N.messages || {};
  const PLURALS = I18N.plurals || {};
  const LANG = I18N.lang || "en";
  // the Plural-Forms expression is C, which is JavaScript too; it comes from the project's own spec/
  const pluralIndex = new Function("n", `return Number(${I18N.plural || "n != 1"});`);
  const NUMBERS = new Intl.NumberFormat(LANG === "ar" ? "ar-u-nu-arab" : LANG, { useGrouping: false });
  const SIGNED = new Intl.NumberFormat(LANG === "ar" ? "ar-u-nu-arab" : LANG, { useGrouping: false, signDisplay: "exceptZero" });
  function num(n, opts = {}) { return (opts.signed ? SIGNED : NUMBERS).format(n); }
  function fill(text, params) {
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (whole, key) => (!(key in params) ? whole
      : typeof params[key] === "number" ? num(params[key]) : String(params[key])));
  }
  function t(message, params) { return fill(MESSAGES[message] || message, params); }
  function n(singular, plural, count, params) {
    const forms = PLURALS[singular];
    const text = forms ? forms[Math.min(pluralIndex(count), forms.length - 1)] : count === 1 ? singular : plural;
    return fill(text, params);
  }
  const _ = t;
  const SUITS = { Sup: "sup", Gon: "gon", Zok: "zok", Sin: "sin" };
  const SUIT_NAMES = { Sup: _("Sup"), Gon: _("Gon"), Zok: _("Zok"), Sin: _("Sin") };
  function parse(name) {
    if (name === "WanSin") return { name, suit: null, number: 1, cls: "wan", label: _("Wan") };
    const m = /^(Sup|Gon|Zok|Sin)([1-9])$/.exec(name);
    if (!m) return null;
    return { name, suit: m[1], number: Number(m[2]), cls: SUITS[m[1]], label: SUIT_NAMES[m[1]] };
  }
  function words(text) { return (text || "").split(/\s+/).filter(Boolean); }
  function card(name, opts = {}) {
    const c = parse(name);
    const el = document.createElement("span");
    if (!c) { el.textContent = name; return el; }
    el.className = `hk-card hk-${c.cls}` + (opts.elder ? " hk-elder" : "") + (opts.down ? " hk-down" : "");
    el.dataset.card = name;
    let spoken = c.suit ? `${c.label} ${num(c.number)}` : _("Wan Sin");
    if (opts.elder) spoken += ", " + _("Elder");
    el.title = spoken;
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", spoken);
    const digit = document.createElement("span"); digit.className = "hk-num"; digit.setAttribute("aria-hidden", "true"); digit.textContent = num(c.number);
    const suit = document.createElement("span"); suit.className = "hk-suit"; suit.setAttribute("aria-hidden", "true"); suit.textContent = c.label;
    el.append(digit, suit);
    if (opts.elder) { const star = document.createElement("span"); star.className = "hk-star"; star.setAttribute("aria-hidden", "true"); star.textContent = "★"; el.append(star); }
    return el;
  }
  function cards(text, elders = new Set(), opts = {}) {
    const box = document.createElement("span");
    box.className = "hk-cards";
    const list = Array.isArray(text) ? text : words(text);
    if (!list.length) { box.className = "hk-nocards"; box.textContent = opts.empty || _("no cards"); }
    for (const n of list) box.appendChild(card(n, { elder: elders.has(n), down: opts.down }));
    return box;
  }
  // The backs of a hand the seat may not see: one back per card (the count is in the observation).
  function back(count) {
    const box = document.createElement("span");
    box.className = "hk-backs";
    box.dataset.count = String(count);
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", _("cards in hand: {count}", { count }));
    box.title = box.getAttribute("aria-label");
    for (let i = 0; i < count; i++) { const b = document.createElement("span"); b.className = "hk-back"; box.append(b); }
    const shown = document.createElement("span"); shown.className = "hk-backcount"; shown.textContent = num(count); box.append(shown);
    return box;
  }
  // The language switcher: the choice is a session cookie the server reads; the page reloads in place.
  function switcher(box) {
    const sel = document.createElement("select");
    sel.id = "hk-lang";
    sel.setAttribute("aria-label", _("Language"));
    for (const [code, name] of Object.entries(I18N.languages || { en: "English" })) {
      const o = document.createElement("option"); o.value = code; o.textContent = name; o.lang = code; sel.append(o);
    }
    sel.value = I18N.lang || "en";
    sel.addEventListener("change", () => {
      document.cookie = `hakka_lang=${sel.value}; path=/; SameSite=Lax`;
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      location.replace(url.toString());
    });
    box.append(sel);
  }
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("hk-langbox");
    if (box) switcher(box);
  });
  return { parse, words, card, cards, back, t, n, num, lang: LANG, dir: I18N.dir || "ltr" };
})();
