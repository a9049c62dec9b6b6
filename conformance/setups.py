"""The shape of a ``start`` setup (spec/PROTOCOL.md): a hand, or a game of deals.

One place that knows how deals nest in a setup, for the runner (which
capabilities a setup needs, seeds as protocol 2 sends them) and the engine
connection (seeds as protocol 1 sent them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

DEAL_FORMS = ("hands", "deck", "seed")
"""A deal's form is also the capability that takes it (spec/PROTOCOL.md, Capabilities)."""


def capabilities_of(setup: Mapping[str, Any]) -> list[str]:
    """The capabilities an engine needs to take ``setup``: ``game`` and each deal's form."""
    if "game" in setup:
        return ["game"] + [c for deal in setup["game"]["deals"] for c in capabilities_of(deal)]
    return [form for form in DEAL_FORMS if form in setup]


def start_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario's setup as `start` sends it: a game's (``first_dealer``, ``deals``, as a count or game
    scenario writes it) goes under ``game``.

    >>> start_setup({"first_dealer": 1, "deals": [{"seed": 4}]})
    {'game': {'first_dealer': 1, 'deals': [{'seed': 4}]}}
    """
    return {"game": dict(setup)} if "first_dealer" in setup else dict(setup)


def with_seeds(setup: Mapping[str, Any], convert: Callable[[Any], Any]) -> dict[str, Any]:
    """``setup`` with every seed passed through ``convert`` (``str`` for protocol 2, ``int`` for 1)."""
    def deal(d: Mapping[str, Any]) -> dict[str, Any]:
        return {**d, "seed": convert(d["seed"])} if "seed" in d else dict(d)
    if "game" in setup:
        game = setup["game"]
        return {"game": {**game, "deals": [deal(d) for d in game["deals"]]}}
    return deal(setup)


def requested_options(requires: Any) -> dict[str, str]:
    """The decision options a scenario's ``requires`` asks an engine to follow, as a ``start`` sends them.

    A mapping of decisions to options is sent as it is; ``defaults`` (or nothing)
    sends none, so the engine plays its defaults.
    """
    return {str(k): str(v) for k, v in requires.items()} if isinstance(requires, Mapping) else {}


def start_request(setup: Mapping[str, Any], options: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``start`` request for ``setup`` under ``options`` (spec/PROTOCOL.md ``start``): the one place
    where decision options become a ``start``.

    Seeds go as protocol 2 writes them, decimal strings (the engine connection turns them
    back into integers for a protocol-1 engine); ``options`` is sent only when given
    (``None``: the engine is not configurable, or plays its defaults).

    >>> start_request({"dealer": 0, "seed": 7}, {"D12": "may-discard"})
    {'cmd': 'start', 'setup': {'dealer': 0, 'seed': '7'}, 'options': {'D12': 'may-discard'}}
    >>> start_request({"dealer": 1, "seed": 7})
    {'cmd': 'start', 'setup': {'dealer': 1, 'seed': '7'}}
    """
    message: dict[str, Any] = {"cmd": "start", "setup": with_seeds(setup, str)}
    if options is not None:
        message["options"] = dict(options)
    return message
