"""The table's rounds come from the events its moves return (reference_engine.events), not from diffing tricks."""

from __future__ import annotations

from hakka_play.table import Table
from reference_engine.events import Event, RoundWon


def _play_out(table: Table) -> None:
    hand = table.current.hand
    while hand.result is None:
        seat = table.to_act
        assert seat is not None
        table.act(seat, table.bot_action(seat))


def test_each_round_is_the_hands_round_won_event_in_order() -> None:
    """Each round the table records starts at a play of the history and ends with the hand's next RoundWon."""
    checked = 0
    for seed in range(30):
        table = Table(humans=[], seed=seed, bot="random")
        hand = table.current.hand
        _play_out(table)
        record = table.ended
        assert record is not None and record.hand is hand
        winners = [e.seat for e in hand.events if isinstance(e, RoundWon)]
        assert [r.winner for r in record.rounds if r.winner is not None] == winners, seed
        history = hand.history
        for r in record.rounds:
            assert history[r.start][1].verb in ("play", "discard")  # a round starts with its lead
        assert len(record.rounds) == len(winners)  # a hand ends only once a round is won (or before any)
        checked += bool(winners)
    assert checked > 10


def test_the_winner_is_read_from_the_event_not_from_the_tricks() -> None:
    """An engine that said another seat won the round (and moved no tricks) is believed: the events decide."""
    table = Table(humans=[], seed=4, bot="random")
    game = table.game
    real_apply = game.apply

    def apply(seat: object, action: object) -> tuple[Event, ...]:
        events = real_apply(seat, action)
        return tuple(RoundWon((e.seat + 1) % 4, e.tricks) if isinstance(e, RoundWon) else e for e in events)

    game.apply = apply  # type: ignore[method-assign]
    hand = table.current.hand
    _play_out(table)
    record = table.ended
    assert record is not None
    told = [(e.seat + 1) % 4 for e in hand.events if isinstance(e, RoundWon)]
    assert told and [r.winner for r in record.rounds if r.winner is not None] == told
