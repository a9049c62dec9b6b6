"""What a seat may know (OBS-1, D32 standard), worked out from the hand's full state: the test's side."""

from __future__ import annotations

import json
import re
from typing import Any

from reference_engine import Card, Cards, Hand
from reference_engine.hand import Phase, elders_given

CARD = re.compile(r"(?:Sup|Gon|Zok|Sin)[1-9]|WanSin")
BIT = {str(Card(i)): 1 << i for i in range(37)}
HAND_KEYS = {"seat", "phase", "to_act", "dealer", "dreamer", "privileged", "hand", "hand_sizes", "dreamer_card",
             "history", "tricks", "elders", "legal", "result", "rounds", "round", "claim_count"}
TOP_KEYS = {"type", "version", "table", "seat", "seats", "options", "game", "hand", "waiting", "ended", "problem",
            "score_table", "clock", "kept"}


_SEEN: dict[tuple[int, int], tuple[Hand, int, int, int]] = {}


def _walk(hand: Hand, seat: int) -> tuple[int, int]:
    """(face-up cards, this seat's own discards) of the history, walked once per hand and seat."""
    key = (id(hand), seat)
    held = _SEEN.get(key)
    done, up, own = (held[1], held[2], held[3]) if held is not None and held[0] is hand else (0, 0, 0)
    history = hand.history
    for who, action in history[done:]:
        if action.verb == "play":
            up |= action.mask
        elif action.verb == "discard" and who == seat:
            own |= action.mask
    if len(_SEEN) > 64:
        _SEEN.clear()
    _SEEN[key] = (hand, len(history), up, own)
    return up, own


def knowable(hand: Hand, seat: int | None) -> int:
    """The cards ``seat`` may see named, as a mask: its own dealt cards, every face-up play, its own
    discards, and the Dreamer's card only for the Dreamer or once a claim or the Five Tigers ended the hand.
    ``None``, a spectator: only what anyone may know, the face-up plays and the Dreamer's card once shown."""
    if seat is None:
        up = face_up(hand)
        won = hand.phase == Phase.ENDED and hand.result is not None and hand.result.winner is not None
        return up | (1 << hand.dreamer_card if won else 0)
    up, own = _walk(hand, seat)
    mask = hand.dealt[seat] | up | own
    won = hand.phase == Phase.ENDED and hand.result is not None and hand.result.winner is not None
    if seat == hand.dreamer or won:
        mask |= 1 << hand.dreamer_card
    return mask


def face_up(hand: Hand) -> int:
    return _walk(hand, 0)[0]


_VERIFIED: dict[tuple[int, int], tuple[Hand, list[Any]]] = {}


def _check_history(history: list[Any], hand: Hand, seat: int, allowed: int) -> None:
    """Every entry: cards only from what ``seat`` may know, another seat's discard as a count only.

    The history only grows within a hand, so a prefix equal to one already verified for this seat
    (compared whole, in C) is not walked again; the new entries always are.
    """
    key = (id(hand), seat)
    held = _VERIFIED.get(key)
    start = 0
    if held is not None and held[0] is hand and history[:len(held[1])] == held[1]:
        start = len(held[1])
    for entry in history[start:]:
        action = entry["action"]
        if entry["seat"] != seat and action.startswith("discard"):
            assert entry == {"seat": entry["seat"], "action": "discard", "count": entry["count"]}, \
                f"another seat's discard shows more than its size: {entry}"
        named = 0
        for name in CARD.findall(action):
            named |= BIT[name]
        assert not named & ~allowed, f"seat {seat} is sent {Cards(named & ~allowed)} in {entry} (phase {hand.phase})"
    if len(_VERIFIED) > 64:
        _VERIFIED.clear()
    _VERIFIED[key] = (hand, history)


_ELDERS_TEXT: dict[int, str] = {}


def _elders_text(gone: int) -> str:
    text = _ELDERS_TEXT.get(gone)
    if text is None:
        if len(_ELDERS_TEXT) > 4096:
            _ELDERS_TEXT.clear()
        text = _ELDERS_TEXT[gone] = str(Cards(elders_given(gone)))
    return text


def check_message(message: dict[str, Any], hand: Hand, seat: int, elders_from_face_up: bool = True) -> None:
    """Raise AssertionError naming the leak if ``message`` (sent to ``seat``) says more than ``seat`` may know."""
    assert set(message) <= TOP_KEYS, f"unexpected top-level keys {set(message) - TOP_KEYS}"
    assert message["seat"] == seat
    view = message["hand"]
    assert set(view) <= HAND_KEYS, f"unexpected keys {set(view) - HAND_KEYS} in the hand view"
    assert view["seat"] == seat
    assert view["hand"] == str(hand.hand_of(seat)), "the seat's own hand is not its real hand"
    if "claim_count" in view:
        assert seat != hand.dreamer
    if view["legal"] is not None:
        assert hand.to_act == seat, "legal actions sent to a seat that is not to act"
    if elders_from_face_up:
        # The Elders are public: they follow from the face-up cards alone (ELD-2, D19 face-up).
        assert view["elders"] == _elders_text(face_up(hand))
    _probe(message, hand, seat, knowable(hand, seat))


def check_spectator(message: dict[str, Any], hand: Hand, elders_from_face_up: bool = True) -> None:
    """:func:`check_message` for a spectator: the same probe, against what anyone may know (no seat's hand,
    every discard a count, the Dreamer's card only once a win shows it)."""
    assert set(message) <= TOP_KEYS, f"unexpected top-level keys {set(message) - TOP_KEYS}"
    assert message["seat"] is None
    view = message["hand"]
    assert set(view) <= HAND_KEYS, f"unexpected keys {set(view) - HAND_KEYS} in the hand view"
    assert view["seat"] is None and view["hand"] == "" and view["legal"] is None and "claim_count" not in view
    if elders_from_face_up:
        assert view["elders"] == _elders_text(face_up(hand))
    _probe(message, hand, None, knowable(hand, None))


def _probe(message: dict[str, Any], hand: Hand, seat: int | None, allowed: int) -> None:
    """The history's entries, then every other card name of the message, against ``allowed``."""
    view = message["hand"]
    _check_history(view["history"], hand, -1 if seat is None else seat, allowed)
    # everything else of the message, whatever its shape: no card name beyond what the seat may know
    rest = dict(message, hand={k: v for k, v in view.items() if k not in ("elders", "history")})
    named = 0
    for name in CARD.findall(json.dumps(rest)):
        named |= BIT[name]
    leaked = named & ~allowed
    assert not leaked, f"seat {seat} is sent {Cards(leaked)}, which it may not know (phase {hand.phase})"
