"""``hakka-play``'s options, the table's bookkeeping and the bots (no server needed)."""

from __future__ import annotations

import re
from random import Random

import pytest

from conformance.rulebook import Rulebook
from hakka_play.bots import RandomBot, RuleBot
from hakka_play.cli import main, parse_options
from hakka_play.table import Table, TableError
from reference_engine import IllegalActionError, Profile, SetupError
from reference_engine.wire import result_json


def test_options_are_validated_against_the_spec(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_options(["D7=any-suit", "d12=may-discard"]) == Profile.from_options({"D7": "any-suit", "D12": "may-discard"})
    with pytest.raises(SetupError) as bad:
        parse_options(["D7=every-suit"])
    assert bad.value.rule == "D7"
    assert main(["--option", "D7=every-suit", "--no-browser"]) == 2
    assert "'every-suit' is not an option of D7" in capsys.readouterr().err
    assert main(["--option", "D99=x", "--no-browser"]) == 2
    assert "unknown decision 'D99'" in capsys.readouterr().err
    assert main(["--option", "D7", "--no-browser"]) == 2
    assert "DECISION=OPTION" in capsys.readouterr().err
    assert main(["--humans", "5", "--no-browser"]) == 2
    assert main(["--replay", "no-such-scenario", "--no-browser"]) == 2
    assert "no scenario 'no-such-scenario'" in capsys.readouterr().err


def test_the_rulebook_addresses_come_from_the_spec() -> None:
    book = Rulebook.default()
    assert book.href("PLAY-4") == "/rulebook/rules/play.html#play-4"
    assert book.href("D7") == "/rulebook/decisions.html#d7"
    assert book.href("PLAY-99") is None and book.href(None) is None
    assert len(book.links()) == len(book.clauses) + len(book.decisions)
    assert {d["id"] for d in book.configurable()} >= {"D7", "D12", "D21"}


def test_tokens_are_unguessable_and_a_bot_seat_opens_to_none() -> None:
    table = Table(humans=[0, 2], seed=1)
    tokens = [s.token for s in table.seats]
    assert len(set(tokens)) == 4 and all(len(t) >= 32 for t in tokens)
    assert table.seat_of(tokens[0]) == 0 and table.seat_of(tokens[2]) == 2
    assert table.seat_of(tokens[1]) is None and table.seat_of("") is None and table.seat_of(None) is None
    assert Table().id != Table().id


def test_ids_and_tokens_cannot_spell_a_card_name() -> None:
    # An id like '_Sin9S5a55Kr' reads as a card on the page and in every view; lower-case hex never does.
    for seed in range(50):
        table = Table(humans=[0, 1, 2, 3], seed=seed)
        for text in [table.id, *(s.token for s in table.seats)]:
            assert re.fullmatch(r"[0-9a-f]+", text), text


def test_the_table_waits_for_every_person_after_a_hand_and_keeps_the_ended_hand() -> None:
    table = Table(humans=[0, 1], seed=3)
    while not table.waiting:
        seat = table.to_act
        assert seat is not None
        table.act(seat, RuleBot().choose(table._hand_view(table.current, seat), table.current.hand.legal_actions(), Random(0)))
    ended = table.ended
    assert ended is not None and ended.hand.result is not None
    assert table.view(0)["ended"] and table.view(0)["hand"]["result"] == result_json(ended.hand.result)
    assert table.to_act is None and table.view(1)["hand"]["legal"] is None
    with pytest.raises(TableError, match="Next hand"):
        table.act(table.game.to_act or 0, "pass")
    table.next_hand(0)
    assert table.waiting == {1}
    with pytest.raises(TableError):
        table.next_hand(0)
    table.next_hand(1)
    assert not table.view(0)["ended"] and table.to_act == table.game.hand.dealer


def test_an_illegal_action_names_its_rule_and_changes_nothing() -> None:
    table = Table(humans=[0], seed=2)
    version = table.version
    with pytest.raises(IllegalActionError) as exc:
        table.act(1, "call")
    assert exc.value.rule == "CALL-1" and table.version == version
    assert table.current.hand.history == []


def test_rounds_record_their_winner_from_the_tricks() -> None:
    """Each round's winner, as the table records it, adds up to the engine's tricks (PLAY-6)."""
    checked = 0
    for seed in range(30):
        table = Table(humans=[], seed=seed, bot="random")
        hand = table.current.hand
        while hand.result is None:
            seat = table.to_act
            assert seat is not None
            table.act(seat, table.bot_action(seat))
        record = table.ended
        assert record is not None and record.hand is hand
        tricks = [0, 0, 0, 0]
        for r in record.rounds:
            if r.winner is not None:
                tricks[r.winner] += len(hand.history[r.start][1].cards)  # as many cards as were led
        assert tricks == hand.tricks, seed
        checked += bool(record.rounds)
    assert checked > 10


def test_the_rule_aware_bot_claims_and_keeps_its_elders() -> None:
    from reference_engine import Action, LegalActions

    bot = RuleBot()
    claim = LegalActions((Action.parse("claim"), Action.parse("continue")))
    view = {"hand": "Sup9 Gon3", "elders": "Sup9", "round": []}
    assert str(bot.choose(view, claim, Random(0))) == "claim"
    lead = LegalActions((Action.parse("play Sup9"), Action.parse("play Gon3")))
    assert str(bot.choose(view, lead, Random(0))) == "play Gon3"
    assert str(RandomBot().choose(view, lead, Random(0))) in ("play Sup9", "play Gon3")


def test_a_bots_turn_is_a_snapshot_and_its_move_applies_only_where_it_was_thought() -> None:
    """What a bot thinks on (off the server's loop) is not the live table; its move is dropped once the table moves."""
    table = Table(humans=[], seed=6)
    turn = table.bot_turn()
    assert turn is not None and turn.seat == table.to_act and turn.position == table.version
    turn.observation["hand"] = ""  # the bot's copy, not the table's
    assert table.view(turn.seat)["hand"]["hand"] != ""
    action = turn.choose()
    table.act(turn.seat, table.bot_action(turn.seat))  # the table moves on while the bot thinks
    moved = (table.version, list(table.current.hand.history), table.rng.getstate())
    assert not table.apply_bot(turn, action)  # stale: not applied, nothing changed (generator included)
    assert (table.version, list(table.current.hand.history), table.rng.getstate()) == moved
    fresh = table.bot_turn()
    assert fresh is not None and table.apply_bot(fresh, fresh.choose())
    assert table.version == moved[0] + 1


def test_bots_thinking_on_snapshots_play_the_same_game_as_on_the_table() -> None:
    """The seed still decides the bots' choices: a move thought on a snapshot draws from a copy of the table's
    generator, which the table takes over when the move applies."""
    for seed in range(3):
        direct, snapshots = Table(humans=[], seed=seed, bot="random"), Table(humans=[], seed=seed, bot="random")
        direct.play_bots()
        while (turn := snapshots.bot_turn()) is not None:
            assert snapshots.apply_bot(turn, turn.choose())
        assert direct.game.over and snapshots.game.over
        assert [result_json(r) for r in snapshots.game.results] == [result_json(r) for r in direct.game.results]
        assert snapshots.game.scores == direct.game.scores and snapshots.rng.getstate() == direct.rng.getstate()


def test_a_move_needing_a_missing_deal_is_refused_and_the_table_shows_the_problem() -> None:
    # Game.apply's contract: a refused next deal raises SetupError and the game stays as it was before the
    # move. The table follows it: the move is not in the hand, the table stops, and says why.
    from reference_engine import Game

    table = Table(humans=[0, 1, 2, 3], seed=1)
    table.game = Game(0, [{"seed": 1}], table.profile)  # one deal only: the end of the hand needs a second
    table.current.hand = table.game.hand
    table.act(0, "pass")
    table.act(1, "pass")
    version, history = table.version, list(table.game.hand.history)
    with pytest.raises(SetupError):
        table.act(3, "pass")  # the hand ends here, and deal 2 is missing
    assert table.game.hand.history == history  # the move is not applied
    assert table.current.hand is table.game.hand and table.ended is None and not table.waiting
    assert table.version == version + 1 and table.over and "next deal cannot be made" in str(table.problem)
    view = table.view(0)
    assert view["problem"] and [a["action"] for a in view["hand"]["history"]] == ["pass", "pass"]
    with pytest.raises(TableError):
        table.act(3, "pass")
