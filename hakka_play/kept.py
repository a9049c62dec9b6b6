"""A kept game in the harness's formats: a fuzz-style trace of the whole game, and a regression scenario per hand.

Both are made from what the game recorded (:class:`~hakka_play.store.GameRecord`): its deals, the
actions the table accepted, and the events the engine said each one caused. Nothing is recomputed here.

* :func:`trace` is the game as a ``.trace.json`` (the fuzzer's shape, ``{"trace": {setup, options,
  steps}}``): the replay viewer opens it (:func:`conformance.replay.load_replay`) and steps through the
  whole game, every seat's cards shown.
* :func:`scenario` is one hand as a scenario file of the conformance corpus's schema: the hand's deal
  (its four dealt hands and its Dealer), each accepted action as a ``do`` step expecting the events the
  game recorded for it (the hand's own events; the next deal and the game's end belong to the game).
  It is a *regression* scenario: its expectation is what the reference engine did when the game was
  played, not a result worked out from the rules by hand, and its notes say so. ``hakka-conformance
  check`` accepts it and ``hakka-conformance run`` replays it on any engine.
"""

from __future__ import annotations

import time
from typing import Any

import yaml

from .store import GameRecord

GAME_EVENTS = ("deal ", "game over")
"""How the events of the game, not of the hand, begin (spec/PROTOCOL.md "Events": the next deal, the game's end)."""
END_CLAUSES = {"claim": "CLAIM-1", "five-tigers": "TIG-1", "void": "CALL-6", "played-out": "PLAY-8"}


def trace(game: GameRecord) -> dict[str, Any]:
    """The whole game as a trace the replay viewer reads (the fuzzer's ``.trace.json`` shape)."""
    steps = [{"seat": step["seat"], "do": step["do"]} for hand in game.hands for step in hand["steps"]]
    return {
        "summary": f"hakka-play game {game.id}: {len(game.hands)} deals, scores {game.scores}",
        "game": game.id,
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(game.finished)),
        "seats": game.seats,
        "scores": game.scores,
        "trace": {"setup": {"game": {"first_dealer": game.first_dealer, "deals": game.deals}},
                  "options": game.options, "steps": steps},
    }


def hand_events(events: list[str]) -> list[str]:
    """The events of a step that belong to the hand (those of the game itself, a next deal, its end, left out)."""
    return [e for e in events if not e.startswith(GAME_EVENTS)]


def scenario_id(game: GameRecord, number: int) -> str:
    return f"play-game-{game.id}-hand-{number}"


def scenario(game: GameRecord, number: int) -> str:
    """Hand ``number`` (1 for the first deal) of ``game`` as the text of a scenario file (YAML)."""
    hand = game.hands[number - 1]
    result = hand.get("result") or {}
    end = result.get("end")
    clauses = ["CALL-1", *([END_CLAUSES[end]] if end in END_CLAUSES else []),
               *(["SCORE-1"] if result.get("winner") is not None else [])]
    finished = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(game.finished))
    steps = [{"seat": step["seat"], "do": step["do"], "expect": {"events": hand_events(step["events"])}}
             for step in hand["steps"]]
    body = {
        "id": scenario_id(game, number),
        "title": f"Hand {number} of a game played at hakka-play ({finished}): "
                 + (f"ended by {end}" if end else "not finished"),
        "clauses": clauses,
        "requires": dict(game.options) if game.options else "defaults",
        "tags": ["regression", "hakka-play"],
        "notes": (
            f"A regression scenario, made by hakka-play from game {game.id} (seed {game.seed}), deal {number}: "
            "the deal is that hand's four dealt hands and its Dealer, each step an action the table accepted, "
            "and each expectation the events the reference engine reported for that action when the game was "
            "played (the game's own events, the next deal and its end, left out). The expectations were "
            "recorded, not derived from the rules: check them against the rulebook before relying on them as "
            "the rules' answer.\n"),
        "trajectory": {"setup": {"dealer": hand["dealer"], "hands": list(hand["hands"])}, "steps": steps},
    }
    head = (f"# hakka-play: game {game.id}, hand {number}; check with `hakka-conformance check FILE`, "
            "run with `hakka-conformance run --scenarios FILE`\n")
    document = {"description": f"Hand {number} of hakka-play game {game.id}, kept as a regression scenario.",
                "scenarios": [body]}
    return head + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=120)
