"""benchmarks/rl_steps.py's floors: no-op environments of the real ones' exact shape (not how fast: that is its job)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

from benchmarks import rl_steps
from benchmarks.rl_steps import FLOORS, LINES, Line, table

HANDS = 5


@pytest.mark.parametrize("real", sorted(set(FLOORS) - set(FLOORS.values())))
def test_each_floor_replays_as_many_steps_as_its_real_line(real):
    """The floor of a line, and the floor's own (OpenSpiel without the Python-level methods), step as many
    times as the real environment over the same hands and seed: the same shape, replayed."""
    want = LINES[real](HANDS, 3)
    assert not want.floor and want.steps >= 3 * HANDS  # three calls at least (CALL-1)
    name = FLOORS[real]
    while name:
        floor = LINES[name](HANDS, 3)
        assert floor.floor and floor.steps == want.steps, (real, name, floor, want)
        name = FLOORS.get(name, "")


def test_the_openspiel_shape_is_the_deal_then_the_seats_that_act():
    """What the floor replays, checked against the rules: 37 chance nodes, each dealing one of the cards left
    (37, 36 .. 1 outcomes: DEAL-4's deal, one card at a time), then only the three active seats (DEAL-3)."""
    for dealer, shape in enumerate(rl_steps._record_openspiel(4, 2)):
        assert [n for p, n in shape.nodes[:37]] == list(range(37, 0, -1))
        assert all(p == -1 for p, _ in shape.nodes[:37])
        seats = {p for p, _ in shape.nodes[37:]}
        assert seats <= {0, 1, 2, 3} - {(dealer + 2) % 4} and all(n >= 1 for _, n in shape.nodes[37:])
        assert shape.steps == len(shape.nodes) - 37 and sum(shape.returns) == 0  # SCORE-7


def test_the_ceiling_is_the_steps_over_the_engine_and_floor_time_at_the_engines_rate():
    best = {
        "engine": Line("engine (reference_engine.Hand)", 1000, 1000, 0.5),  # 2000 actions/s
        "openspiel": Line("OpenSpiel make_observation", 1200, -1, 2.0),
        "openspiel-floor": Line("  floor: of it", 1200, -1, 0.25, floor=True),
    }
    rows = table(best, 10, 1).splitlines()
    by_name = {row.split()[0]: row.split() for row in rows[2:5]}
    # 1200 steps / (0.5 + 0.25) s = 1600 steps/s, 0.80 of the engine's 2000 actions/s; the real line's 0.30
    assert by_name["OpenSpiel"][-2:] == ["0.30", "0.80"]
    assert by_name["floor:"][-1] == "0.80" and by_name["engine"][-1] == "-"
    assert [row.split()[0] for row in rows[2:5]] == ["engine", "OpenSpiel", "floor:"]  # a floor below its line


def test_the_table_prints_every_line_with_its_ceiling(capsys):
    rl_steps.main(["--hands", "2", "--repeat", "1"])
    out = capsys.readouterr().out
    for name in ["engine (reference_engine.Hand)", "PettingZoo env() (AEC)", "OpenSpiel observation_tensor()",
                 "floor: PettingZoo AEC API, wrapped", "floor: pyspiel make_observation, pyspiel's C++ methods"]:
        assert name in out
    rows = [row for row in out.splitlines() if row.startswith(("PettingZoo", "OpenSpiel", "  floor:"))
            and "over each peer" not in row]
    assert len(rows) == 10 and all(float(row.split()[-1]) > 0 for row in rows), rows
    assert "ceiling: steps / (engine cpu + floor cpu)" in out
    assert "OpenSpiel make_observation over each peer: leduc_poker " in out  # the peers' ratios, last


def test_each_peer_line_plays_its_games_and_the_ratios_name_each_peer():
    """The peers (issue 29's yardstick): each registered line plays episodes of its game through the same loop
    (PettingZoo's only when rlcard is installed: not in CI); the ratio rows name every peer measured."""
    peers = [name for name in LINES if name.startswith("peer-")]
    assert {f"peer-openspiel-{n}" for n in rl_steps.OPENSPIEL_PEERS} <= set(peers)
    best = {name: LINES[name](2, 1) for name in ["pettingzoo", "openspiel", *peers]}
    assert all(line.steps > 0 and line.cpu >= 0 for line in best.values())
    rows = rl_steps.peer_ratios({name: Line(line.name, line.steps, -1, max(line.cpu, 1e-9))
                                 for name, line in best.items()})
    spiel = next(row for row in rows if row.startswith("OpenSpiel make_observation over each peer: "))
    assert all(game.split("(")[0] in spiel for game in rl_steps.OPENSPIEL_PEERS.values())
