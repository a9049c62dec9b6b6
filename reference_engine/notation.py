"""A hand's position as one line of text, and back (as FEN is to chess).

Five fields separated by `` | ``: the phase and the seat to act (``-`` when
nobody acts), the Dealer, the four dealt holdings by seat (separated by
`` / ``), the decision options that differ from the defaults (``-`` for
none), and the history, each action as ``seat action`` (separated by ``; ``,
``-`` for none). The phase and seat to act follow from the rest; reading
checks that they do.

>>> from reference_engine.hand import Hand
>>> hand = Hand.from_seed(dealer=0, seed=1)
>>> _ = hand.apply(0, "call")
>>> text = hand.notation()
>>> text.split(" | ")[0], text.split(" | ")[1], text.split(" | ")[4]
('playing 0', 'dealer 0', '0 call')
>>> Hand.from_notation(text).notation() == text
True
"""

from __future__ import annotations

from .cards import mask_text
from .errors import HakkaError, MalformedError
from .hand import Hand
from .profile import Profile
from .rules import DEFAULT_RULES, Rules

_SEP = " | "


def write_notation(hand: Hand) -> str:
    """The position of ``hand`` as text (see the module)."""
    to_act = "-" if hand.to_act is None else str(hand.to_act)
    options = " ".join(f"{d}={o}" for d, o in hand.profile.changed().items()) or "-"
    history = "; ".join(f"{seat} {action}" for seat, action in hand.history) or "-"
    dealt = " / ".join(mask_text(mask) for mask in hand.dealt)
    return _SEP.join((f"{hand.phase.value} {to_act}", f"dealer {hand.dealer}", dealt, options, history))


def parse_notation(text: str, rules: Rules = DEFAULT_RULES) -> Hand:
    """The hand that ``text`` describes, played under ``rules``; :class:`MalformedError` if none."""

    def bad(why: str) -> MalformedError:
        return MalformedError(f"not a hand notation ({why}): {text!r}")

    fields = text.strip().split(_SEP)
    if len(fields) != 5:
        raise bad(f"expected 5 fields separated by {_SEP.strip()!r}, got {len(fields)}")
    head, dealer_field, dealt, options, history = (f.strip() for f in fields)
    words = dealer_field.split()
    if len(words) != 2 or words[0] != "dealer" or words[1] not in "0123":
        raise bad("the second field is 'dealer N' with N a seat 0-3")
    try:
        profile = Profile.from_options(dict(_pair(w, "=") for w in options.split()) if options != "-" else {})
        hand = Hand.deal(int(words[1]), [h.strip() for h in dealt.split(" / ")], profile, rules=rules)
        if history != "-":
            for step in history.split(";"):
                seat, _, action = step.strip().partition(" ")
                if seat not in ("0", "1", "2", "3"):
                    raise bad(f"{step.strip()!r} does not start with a seat 0-3")
                hand.apply(int(seat), action)
    except MalformedError:
        raise
    except HakkaError as exc:
        raise bad(str(exc)) from None
    to_act = "-" if hand.to_act is None else str(hand.to_act)
    if head.split() != [hand.phase.value, to_act]:
        raise bad(f"the history leads to '{hand.phase.value} {to_act}', not {head!r}")
    return hand


def _pair(word: str, sep: str) -> tuple[str, str]:
    key, found, value = word.partition(sep)
    if not found:
        raise MalformedError(f"{word!r} is not a decision option 'Dn=option'")
    return key, value

