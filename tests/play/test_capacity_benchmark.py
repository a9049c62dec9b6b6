"""benchmarks/play_capacity.py still runs at a tiny N and prints every figure sane (how fast is its own job)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("websockets", reason="the play extra: pip install -e '.[play]'")
pytest.importorskip("uvicorn", reason="the play extra: pip install -e '.[play]'")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "play_capacity.py"


def test_two_tables_of_four_real_clients_report_moves_latency_memory_and_database_size() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--tables", "2", "--seconds", "4", "--warmup", "1",
                          "--think", "0.1", "--sync", "normal"], capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert lines[0].startswith("hakka-play capacity:") and "database: SQLite file" in lines[0]
    header = lines[1].split()
    assert header[:5] == ["tables", "sync", "sockets", "moves/s", "p50"] and "verdict" in header
    row = lines[2].split()
    tables, sync, sockets = int(row[0]), row[1], int(row[2])
    moves_per_s, p50, p99, all_p50, all_p99, kb_table, db_move, db_game, cpu, lag = (
        float(x.rstrip("%")) for x in row[3:13])
    assert (tables, sync, sockets) == (2, "normal", 8)
    assert moves_per_s > 1, "two tables at 0.1 s a move make many moves a second"
    assert 0 < p50 <= p99 and p50 <= all_p50 <= all_p99 and p99 <= all_p99 + 1e-9
    assert all_p99 < 10_000, "a move reaches every seat within seconds"
    assert 0 < kb_table < 100_000
    assert 20 < db_move < 20_000 and db_game > db_move / 1024
    assert 0 <= cpu <= 200 and lag > 0
    assert re.search(r"  p99 (<|>=) 250 ms$", lines[2]), f"no move refused, and a verdict: {lines[2]}"
    details = re.fullmatch(r"\s+\((\d+) moves, (\d+) games finished, (\d+) moves per game, max (\d+) ms, "
                           r"server RSS (\d+) → (\d+) MB, set up in [\d.]+ s\)", lines[3])
    assert details, lines[3]
    moves = int(details[1])
    assert abs(moves / 4 - moves_per_s) < 0.01 * moves_per_s + 0.5
    assert 20 < int(details[3]) < 1000, "a game of four hands is tens of moves"
