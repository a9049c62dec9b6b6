"""HTML snippets for the rulebook: cards drawn in pure CSS, hands, steps, results.

Everything returned here is an HTML string, already escaped; the Sphinx
extension wraps it in ``raw`` nodes. The look lives in ``_static/hakka.css``.
A card shows its number, its suit's name and a suit colour, so suits are told
apart by colour *and* text; an Elder carries a star.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from html import escape
from typing import Any

from hakka_data import (
    INITIAL_ELDERS,
    LANGUAGES,
    SEED_LANGUAGES,
    Card,
    SpecError,
    parse_action,
    parse_cards,
)
from hakka_gettext import N_, _, current_language, ngettext

SUIT_CLASS = {"Sup": "sup", "Gon": "gon", "Zok": "zok", "Sin": "sin", None: "wan"}
# A card's face names its suit in the page's language, the seed's own word, as the table's cards do.
SUIT_LABEL = {"Sup": N_("Sup"), "Gon": N_("Gon"), "Zok": N_("Zok"), "Sin": N_("Sin"), None: N_("Wan")}
# English msgids of the catalog hakka (N_); translated with _() where they are drawn.
VERB_TEXT = {
    "call": N_("calls"),
    "pass": N_("passes"),
    "play": N_("plays"),
    "discard": N_("discards"),
    "claim": N_("claims victory"),
    "continue": N_("plays on"),
    "tigers": N_("declares the Five Tigers"),
    "decline": N_("declines the Five Tigers"),
}


EASTERN_DIGITS = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def card_html(card: Card, elder: bool = False, down: bool = False) -> str:
    suit = SUIT_CLASS[card.suit]
    classes = ["hk-card", f"hk-{suit}"]
    if elder:
        classes.append("hk-elder")
    if down:
        classes.append("hk-down")
    label = _(SUIT_LABEL[card.suit])
    # the number in the page's numerals, as the table's cards write it: the Arabic seed's digits (١ to ٩) in Arabic
    number = str(card.number).translate(EASTERN_DIGITS) if current_language() == "ar" else str(card.number)
    spoken = _("Wan Sin") if card.suit is None else f"{label} {number}"
    if elder:
        spoken += ", " + _("Elder")
    if down:
        spoken += ", " + _("discarded face down")
    star = '<span class="hk-star" aria-hidden="true">★</span>' if elder else ""
    return (
        f'<span class="{" ".join(classes)}" title="{escape(spoken)}" role="img" aria-label="{escape(spoken)}">'
        f'<span class="hk-num" aria-hidden="true">{number}</span>'
        f'<span class="hk-suit" aria-hidden="true">{escape(label)}</span>{star}</span>'
    )


def cards_html(
    cards: Iterable[Card], elders: Iterable[str] = INITIAL_ELDERS, down: bool = False, empty: str = N_("no cards")
) -> str:
    elder_set = set(elders)
    items = [card_html(c, c.name in elder_set, down) for c in cards]
    if not items:
        return '<span class="hk-nocards">' + escape(_(empty)) + "</span>"
    return f'<span class="hk-cards">{"".join(items)}</span>'


def text_cards_html(text: Any, elders: Iterable[str] = INITIAL_ELDERS, down: bool = False) -> str:
    return cards_html(parse_cards(text), elders, down)


def quote_html(seed: str | None, lang: str | None, quote: str) -> str:
    """A source quotation, in its language, labelled; right-to-left where the script is."""
    lang = lang or SEED_LANGUAGES.get(str(seed or ""), "")
    english_name, direction = LANGUAGES.get(lang, (lang or N_("source"), "ltr"))
    name = _(english_name)
    label = list_join(name, _("seed {seed}").format(seed=seed)) if seed else name
    return (
        '<figure class="hk-quote">'
        f'<blockquote lang="{escape(lang)}" dir="{direction}"><p>{escape(quote)}</p></blockquote>'
        f'<figcaption><span class="hk-lang">{escape(name)}</span>'
        f'{escape(label[len(name):])}</figcaption></figure>'
    )


# The comma between two items of a label, in the page's script (Arabic writes "،").
# Not a message: CLDR's list patterns have no bare comma for Arabic ("{0} و{1}", "and").
LIST_COMMA = {"ar": "، "}


def list_join(first: str, second: str) -> str:
    """Two items of a label, separated by the comma of the page's language."""
    return first + LIST_COMMA.get(current_language(), ", ") + second


def scenario_source_html(source: str) -> str:
    """A scenario's optional ``source`` quote, ``"001: text"`` style."""
    seed, sep, text = source.partition(":")
    if sep and seed.strip().isdigit() and len(seed.strip()) == 3:
        return quote_html(seed.strip(), None, text.strip())
    return quote_html(None, "", source)


# ------------------------------------------------------------- seats


class Seats:
    """Who sits where, for labels: Dealer, Dreamer and (once known) the PP."""

    def __init__(self, dealer: int | None) -> None:
        self.dealer = dealer
        self.privileged: int | None = None

    @property
    def dreamer(self) -> int | None:
        return None if self.dealer is None else (self.dealer + 2) % 4

    def roles(self, seat: int) -> list[str]:
        out = []
        if seat == self.dealer:
            out.append("dealer")
        if seat == self.dreamer:
            out.append("dreamer")
        if seat == self.privileged:
            out.append("pp")
        return out

    def label(self, seat: int | None, short: bool = False) -> str:
        if seat is None:
            return escape(_("nobody"))
        roles = self.roles(seat)
        badge = "".join(f'<span class="hk-role hk-role-{r}">{escape(_(ROLE_TEXT[r]))}</span>' for r in roles)
        seat_text = escape(_("Seat {seat}").format(seat=seat)).replace(" ", "&nbsp;")
        return f'<span class="hk-seat">{seat_text}</span>{badge}'


def hands_html(hands: list[list[Card]], seats: Seats, how: str) -> str:
    rows = []
    for seat, hand in enumerate(hands):
        rows.append(
            f"<tr><th scope=\"row\">{seats.label(seat)}</th>"
            f"<td>{cards_html(hand)}</td><td class=\"hk-count\">{len(hand)}</td></tr>"
        )
    caption = escape(_("The deal") if how == "hands" else _("The deal, {how}").format(how=how))
    return (
        '<table class="hk-hands"><caption>' + caption + "</caption>"
        "<thead><tr><th>" + escape(_("Seat")) + "</th><th>" + escape(_("Cards (★ = Elder at the start)"))
        + "</th><th>#</th></tr></thead>"
        "<tbody>" + "".join(rows) + "</tbody></table>"
    )


# ------------------------------------------------------------- actions


def action_html(text: str, elders: Iterable[str] = INITIAL_ELDERS) -> str:
    try:
        verb, cards = parse_action(text)
    except SpecError:
        note = escape(_("(not valid card text)"))
        return f'<code class="hk-malformed">{escape(text)}</code> <span class="hk-note">{note}</span>'
    if verb not in VERB_TEXT:
        return f'<code class="hk-malformed">{escape(text)}</code>'
    words = f'<span class="hk-verb hk-verb-{verb}">{escape(_(VERB_TEXT[verb]))}</span>'
    if verb in ("play", "discard"):
        return words + " " + cards_html(cards, elders, down=(verb == "discard"))
    return words


def legal_html(legal: dict[str, Any]) -> str:
    parts = [f'<span class="hk-legal">{action_html(a)}</span>' for a in legal.get("actions") or []]
    discard = legal.get("discard")
    if discard:
        # The discard option may name a whole hand: it wraps, unlike a single play.
        words = escape(_("discard any {count} of").format(count=int(discard["count"])))
        parts.append(
            f'<span class="hk-discard-option"><span class="hk-verb hk-verb-discard">{words}</span> '
            + text_cards_html(discard["from"]) + "</span>"
        )
    if not parts:
        return '<span class="hk-nocards">' + escape(_("no action")) + "</span>"
    return ('<span class="hk-or"> ' + escape(_("or")) + " </span>").join(parts)


RESULT_END = {
    "claim": N_("a claim"),
    "five-tigers": N_("the Five Tigers"),
    "played-out": N_("cards played out, no claim"),
    "void": N_("a void hand (nobody called)"),
}
PATTERN_TEXT = {"run": N_("a Run"), "set": N_("a Set"), "single": N_("a Single"), "none": N_("not a pattern")}
ROLE_TEXT = {"dealer": N_("Dealer"), "dreamer": N_("Dreamer"), "pp": N_("PP")}


def result_html(result: dict[str, Any], seats: Seats) -> str:
    facts = []
    if "end" in result:
        facts.append((_("Ended by"), escape(_(RESULT_END.get(result["end"], str(result["end"]))))))
    if "winner" in result:
        facts.append((_("Winner"), seats.label(result["winner"])))
    if "tricks" in result:
        facts.append((_("Winner's count"), _tricks(result["tricks"])))
    if "dreamer_count" in result:
        facts.append((_("Dreamer's count"), _tricks(result["dreamer_count"])))
    if "next_dealer" in result:
        facts.append((_("Next Dealer"), seats.label(result["next_dealer"])))
    if "counts" in result:
        facts.append((_("Counts toward the 4 hands"), _("yes") if result["counts"] else _("no")))
    html = ""
    if facts:
        html += '<dl class="hk-facts">' + "".join(f"<dt>{escape(k)}</dt><dd>{v}</dd>" for k, v in facts) + "</dl>"
    if "deltas" in result:
        html += four_html(_("Score change"), result["deltas"], seats, signed=True)
    return html


def _tricks(count: int | None) -> str:
    return "—" if count is None else escape(ngettext("{count} trick", "{count} tricks", count).format(count=count))


def four_html(title: str, values: list[int], seats: Seats, signed: bool = False) -> str:
    head = "".join(f"<th scope=\"col\">{seats.label(s)}</th>" for s in range(4))

    def fmt(v: int) -> str:
        if not signed:
            return str(v)
        cls = "hk-plus" if v > 0 else "hk-minus" if v < 0 else "hk-zero"
        return f'<span class="{cls}">{v:+d}</span>' if v else '<span class="hk-zero">0</span>'

    cells = "".join(f"<td>{fmt(int(v))}</td>" for v in values)
    return (
        f'<table class="hk-four"><thead><tr><th></th>{head}</tr></thead>'
        f'<tbody><tr><th scope="row">{escape(title)}</th>{cells}</tr></tbody></table>'
    )


PHASES = {
    "calling": N_("Calling"),
    "tigers": N_("Five Tigers choice"),
    "playing": N_("Playing"),
    "claim": N_("claim or play on"),
    "ended": N_("hand over"),
    "game-over": N_("game over"),
}


def _actions_html(actions: list[str]) -> str:
    return '<span class="hk-or"> · </span>'.join(f'<span class="hk-legal">{action_html(a)}</span>' for a in actions)


def _hands_items(hands: dict[Any, Any], seats: Seats) -> list[str]:
    items = []
    for seat, cards in sorted(hands.items(), key=lambda kv: int(kv[0])):
        who = seats.label(int(seat))
        items.append(escape(_("{seat} holds {cards}")).format(seat=who, cards=text_cards_html(cards)) if cards
                     else escape(_("{seat} holds no card")).format(seat=who))
    return items


def _game_items(g: dict[str, Any], seats: Seats) -> list[str]:
    bits = []
    if "hand" in g:
        bits.append(_("hand {number}").format(number=g["hand"]))
    if "deals" in g:
        bits.append(ngettext("{count} deal", "{count} deals", int(g["deals"])).format(count=g["deals"]))
    if "hands_played" in g:
        n = int(g["hands_played"])
        bits.append(ngettext("{count} hand played", "{count} hands played", n).format(count=n))
    items = [escape(_("game: {facts}").format(facts=", ".join(bits)))] if bits else []
    if "scores" in g:
        items.append(four_html(_("Game score"), g["scores"], seats, signed=True))
    return items


def _round_item(r: dict[str, Any], seats: Seats) -> str:
    plays = "; ".join(f"{seats.label(p['seat'])}: {action_html(p['action'])}" for p in r["plays"])
    return escape(_("round in progress, led by {seat}: {plays}")).format(
        seat=seats.label(r["leader"]), plays=plays or escape(_("no play yet")))


def _elders_item(text: Any, seats: Seats) -> str:
    cards = parse_cards(text)
    return escape(_("Elders, exactly:")) + " " + cards_html(cards, [c.name for c in cards], empty=N_("none"))


def _elders_include_item(text: Any, seats: Seats) -> str:
    cards = parse_cards(text)
    return escape(_("Elders include")) + " " + cards_html(cards, [c.name for c in cards])


def _events_item(events: list[str], seats: Seats) -> str:
    """What the step's action caused, as the engine must tell it (spec/PROTOCOL.md, "Events"): protocol text, in order."""
    listed = "".join(f'<li><code class="hk-event">{escape(e)}</code></li>' for e in events)
    return escape(_("what it causes, in order:")) + f' <ol class="hk-events">{listed}</ol>'


# Each expectation key of a step (or of `final`), in the order they are shown,
# and how it reads: one item, or a list of items.
_EXPECT_ITEMS: tuple[tuple[str, Callable[[Any, Seats], str | list[str]]], ...] = (
    ("phase", lambda v, s: escape(_("phase:")) + f" <b>{escape(_(PHASES.get(v, v)))}</b>"),
    ("to_act", lambda v, s: escape(_("nobody to act")) if v is None else escape(_("{seat} to act")).format(seat=s.label(v))),
    ("privileged", lambda v, s: escape(_("no Privileged Player")) if v is None
     else escape(_("Privileged Player: {seat}")).format(seat=s.label(v))),
    ("legal", lambda v, s: escape(_("legal, exactly:")) + " " + legal_html(v)),
    ("legal_includes", lambda v, s: escape(_("may:")) + " " + _actions_html(v)),
    ("legal_excludes", lambda v, s: '<span class="hk-neg">' + escape(_("may not:")) + "</span> " + _actions_html(v)),
    ("elders", _elders_item),
    ("elders_include", _elders_include_item),
    ("elders_exclude", lambda v, s: '<span class="hk-neg">' + escape(_("not Elders:")) + "</span> "
     + cards_html(parse_cards(v), ())),
    ("tricks", lambda v, s: escape(_("tricks:")) + " "
     + " · ".join(escape(_("seat {seat}: {tricks}").format(seat=seat, tricks=t)) for seat, t in enumerate(v))),
    ("hands", _hands_items),
    ("game", _game_items),
    ("round", _round_item),
    ("result", lambda v, s: result_or_none_html(v, s)),
    ("events", _events_item),
)


def expect_html(expect: dict[str, Any], seats: Seats) -> str:
    """Every expectation of a step (or of `final`), in words."""
    items: list[str] = []
    for key, render in _EXPECT_ITEMS:
        if key in expect:
            item = render(expect[key], seats)
            items.extend([item] if isinstance(item, str) else item)
    if not items:
        return ""
    return '<ul class="hk-expect">' + "".join(f"<li>{i}</li>" for i in items) + "</ul>"


def final_html(title: str, final: dict[str, Any], seats: Seats) -> str:
    """The ``final`` expectations: the hand result first, as facts and a score table."""
    rest = {k: v for k, v in final.items() if k != "result"}
    html = f'<div class="hk-final"><p class="hk-final-title">{escape(title)}</p>'
    if "result" in final:
        html += result_or_none_html(final["result"], seats)
    html += expect_html(rest, seats) + "</div>"
    return html


def result_or_none_html(result: dict[str, Any] | None, seats: Seats) -> str:
    if result is None:
        return escape(_("no hand result yet"))
    return '<div class="hk-result">' + result_html(result, seats) + "</div>"


def refused_setup_html(body: dict[str, Any]) -> str:
    """A `start` an engine must refuse: the setup as written, and the error."""
    def setup_rows(setup: dict[str, Any]) -> str:
        if "game" in setup:
            game = setup["game"]
            rows = _row(_("first Dealer"), escape(_("seat {seat}").format(seat=game["first_dealer"])))
            return rows + "".join(_row(_("deal {number}").format(number=i), escape(json_text(d)))
                                  for i, d in enumerate(game["deals"], 1))
        rows = _row(_("Dealer"), escape(_("seat {seat}").format(seat=setup["dealer"])))
        for seat, hand in enumerate(setup.get("hands", [])):
            rows += _row(_("seat {seat}").format(seat=seat), f"<code>{escape(hand)}</code>")
        for key in ("deck", "seed"):
            if key in setup:
                rows += f'<tr><th scope="row">{key}</th><td><code>{escape(str(setup[key]))}</code></td></tr>'
        return rows
    html = ""
    if "before" in body:
        html += '<p class="hk-game-setup">' + escape(
            _("First a valid hand is started; after the refusal it must be exactly as it was, and so must what "
              "each seat observes.") if body.get("observe") else
            _("First a valid hand is started; after the refusal it must be exactly as it was.")) + "</p>"
    if "options" in body:
        html += ('<p class="hk-game-setup">' + escape(_("Options sent:")) + " "
                 f'<code>{escape(json_text(body["options"]))}</code></p>')
    refused = escape(_("✗ refused: {error}").format(error=body["error"]))
    html += '<table class="hk-duel"><tbody>' + setup_rows(body["start"]) + (
        '<tr><th scope="row">' + escape(_("Result")) + f'</th><td><span class="hk-verdict hk-no">{refused}'
        "</span></td></tr></tbody></table>")
    return html


def _row(head: str, cell_html: str) -> str:
    return f'<tr><th scope="row">{escape(head)}</th><td>{cell_html}</td></tr>'


def json_text(value: Any) -> str:
    import json
    return json.dumps(value, ensure_ascii=False)


# ------------------------------------------------------------- bodies


def pattern_html(body: dict[str, Any]) -> str:
    elders = parse_cards(body["elders"]) if "elders" in body else None
    elder_names = [c.name for c in elders] if elders is not None else list(INITIAL_ELDERS)
    if "classify" in body:
        verdict = escape(_(PATTERN_TEXT[body["expect"]]))
        cls = "hk-no" if body["expect"] == "none" else "hk-yes"
        return (
            '<div class="hk-pattern"><span class="hk-label">' + escape(_("Cards")) + "</span> "
            + text_cards_html(body["classify"], elder_names)
            + f' <span class="hk-arrow">→</span> <span class="hk-verdict {cls}">{verdict}</span></div>'
        )
    led = body.get("led", True)
    beats = body["expect"] == "beats"
    html = '<div class="hk-pattern hk-beats"><table class="hk-duel"><tbody>'
    html += (
        _row(_("Winning so far (the lead)") if led else _("Winning so far (not the lead)"),
             text_cards_html(body["current"], elder_names))
        + _row(_("Played next"), text_cards_html(body["challenger"], elder_names))
    )
    if elders is not None and set(elder_names) != set(INITIAL_ELDERS):
        html += _row(_("Elders at that moment"), cards_html(elders, elder_names, empty=N_("none")))
    verdict = escape(_("beats it") if beats else _("does not beat it"))
    html += (
        '<tr><th scope="row">' + escape(_("Result"))
        + f'</th><td><span class="hk-verdict {"hk-yes" if beats else "hk-no"}">'
        f"{'✓' if beats else '✗'} {verdict}</span></td></tr></tbody></table></div>"
    )
    return html


def steps_html(steps: list[dict[str, Any]], seats: Seats, elders: list[list[str]] | None = None) -> str:
    """A table of the steps; ``elders`` are the Elders before each step (else those of ELD-1)."""
    called = False
    rows = []
    for n, step in enumerate(steps, 1):
        now = elders[n - 1] if elders is not None else list(INITIAL_ELDERS)
        seat = step.get("seat")
        cls = ""
        if "do" in step:
            action = action_html(step["do"], now)
            try:
                verb, _cards = parse_action(step["do"])
            except SpecError:
                verb = ""
            if verb == "call" and not called:
                called = True
                if seats.dealer is not None and seat != seats.dealer:  # in a game the Dealer changes: no badge
                    seats.privileged = seat
        elif "reject" in step:
            cls = ' class="hk-rejected"'
            action = (
                '<span class="hk-refused">' + escape(_("✗ refused ({error})").format(error=step.get("error", "")))
                + "</span> "
                + action_html(step["reject"], now)
            )
        else:
            action = '<span class="hk-note">' + escape(_("check")) + "</span>"
        who = seats.label(seat) if seat is not None else ""
        then = expect_html(step.get("expect") or {}, seats)
        if then:
            then = '<div class="hk-then"><span class="hk-then-label">' + escape(_("then")) + "</span>" + then + "</div>"
        rows.append(
            f"<tr{cls}><td class=\"hk-n\">{n}</td><td class=\"hk-who\">{who}</td>"
            f'<td><div class="hk-action">{action}</div>{then}</td></tr>'
        )
    return (
        '<table class="hk-steps"><thead><tr><th>#</th><th>' + escape(_("Seat")) + "</th>"
        "<th>" + escape(_("Action, then what the engine must show")) + "</th></tr></thead><tbody>"
        + "".join(rows) + "</tbody></table>"
    )
