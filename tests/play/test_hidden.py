"""Hidden information over 1,000 random bot games: every message the server would send each seat.

The games run in-process through the server's own per-seat builder (:meth:`Table.view`, the one
function whose output :meth:`PlayServer.broadcast` sends); test_server.py checks the same property
over real sockets for a few games. Every view of every seat after every action is checked by
:func:`hidden.check_message` against what that seat may know (OBS-1, PLAY-5, SCORE-4).
"""

from __future__ import annotations

import time
from random import Random
from typing import Any

from hakka_play.bots import RandomBot
from hakka_play.table import Table
from reference_engine import Profile

from .hidden import check_message

GAMES = int(__import__("os").environ.get("HIDDEN_GAMES", "1000"))
person = RandomBot()
PROFILES = [
    Profile(),
    Profile.from_options({"D21": "automatic"}),
    Profile.from_options({"D24": "declared", "D6": "privileged-player"}),
    Profile.from_options({"D7": "any-suit", "D12": "may-discard"}),
    Profile.from_options({"D19": "face-up-and-discards"}),
]


def test_every_view_of_1000_random_bot_games_holds_only_what_its_seat_may_know() -> None:
    started = time.process_time()
    messages = ended_by_claim = dreamer_shown = discards_hidden = 0
    for game in range(GAMES):
        profile = PROFILES[game % len(PROFILES)]
        face_up_elders = profile.elder_promotion == "face-up"
        table = Table(humans=[0], seed=game, bot="random", profile=profile)
        rng = Random(game)
        view0: dict[str, Any] = {}
        while not table.over:
            if table.waiting:
                table.next_hand(0)
            else:
                seat = table.to_act
                assert seat is not None
                hand = table.current.hand
                # seat 0 is a person; here it plays at random like the bots
                action = table.bot_action(seat) if seat else person.choose(view0, hand.legal_actions(), rng)
                table.act(seat, action)
            shown = table.ended if (table.waiting or table.over) and table.ended else table.current
            for seat in range(4):
                view = table.view(seat)
                check_message(view, shown.hand, seat, face_up_elders)
                if seat == 0:
                    view0 = view["hand"]
                messages += 1
                h = view["hand"]
                if h["dreamer_card"] and seat != h["dreamer"]:
                    dreamer_shown += 1
                discards_hidden += sum(1 for e in h["history"] if e.get("count"))
            if table.waiting and shown.hand.result and shown.hand.result.end == "claim":
                ended_by_claim += 1
        assert table.game.over, table.problem
    # the property was exercised, not vacuous: claims revealed the Dreamer's card, discards were hidden
    assert messages > 100_000 and ended_by_claim > 500 and dreamer_shown > 1000 and discards_hidden > 10_000
    print(f"\n{GAMES} games, {messages} messages checked in {time.process_time() - started:.1f} s CPU")
