"""How many tables one ``hakka-play`` process holds: N tables of four people, each a real WebSocket client.

    python benchmarks/play_capacity.py [--tables 50,200,500] [--sync full,normal] [--seconds 60] [--think 2.0]

For each N and each ``--sync`` mode (what an accepted move waits for: the disk, or the operating system),
side by side: a fresh ``hakka-play`` server process (uvicorn, its database a real SQLite file in a
temporary folder) is started; N tables of four people are created and seated through the lobby
(``POST /api/tables``, ``POST /api/join``), and 4·N WebSocket clients (``websockets``, in
``--client-processes`` processes of this script, on the same machine) play them: a seat whose turn it
is waits about ``--think`` seconds (uniform between half and one and a half of it), then sends a legal
move of its view; a seat shown the end of a hand sends Next hand; a finished game's seats leave and a new
table of four takes its place. After a warm-up of ``--warmup`` seconds it measures for ``--seconds``.

It prints, per N:
  moves/s     moves the server accepted per second (every seat's view counts each once)
  latency     from a move's sending to each seat's receiving the view it made, p50 and p99 (ms);
              "all told": to the last of the four seats
  memory      the server's resident memory (VmRSS) with the N tables open, less its memory before
              the first table, per table (kB)
  database    the file's size after the run (checkpointed) per stored move, tables and seats included,
              and per game of four hands at the mean length of the games played (kB)
  CPU         the server's CPU, how long its loop waited for a CPU (others had them), the clients' CPU
  lag         how long the lobby's list of tables took to come meanwhile (p99, ms): the event loop's delay
and whether p99 (all told) stayed under ``--target-ms`` (default 250).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kb(pid: int) -> int:
    """The resident memory of process ``pid`` (Linux /proc), in kB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for process {pid}")


class Server:
    """``hakka-play`` in a process of its own, on a free port, its tables in ``database``."""

    def __init__(self, database: Path, tables: int, sync: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        bound = str(tables * 2 + 10)  # replaced games open new tables while the old ones wait to be swept
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "hakka_play.cli", "--no-browser", "--host", "127.0.0.1", "--port", str(self.port),
             "--database", str(database), "--max-tables", bound, "--max-tables-per-address", bound,
             "--bot-delay", "0", "--sync", sync],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        import httpx

        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(self.base + "/api/tables", timeout=2)
                return
            except httpx.TransportError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not start: {self.proc.stderr.read() if self.proc.stderr else ''}") from None
                time.sleep(0.1)

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        try:
            _out, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _out, err = self.proc.communicate()
        return err or ""


# ---------------------------------------------------------------- the clients (in worker processes)

def choose(view: dict[str, Any]) -> str:
    """A legal move of the seat's view: a random one of its list, or a discard of the first cards asked."""
    legal = view["hand"]["legal"]
    if legal["actions"]:
        return str(random.choice(legal["actions"]))
    option = legal["discard"]
    return "discard " + " ".join(option["from"].split()[: option["count"]])


@dataclass
class Figures:
    """What one client process measured (merged by the parent)."""

    moves: int = 0
    deliveries: list[float] = field(default_factory=list)
    all_told: list[float] = field(default_factory=list)
    games: int = 0
    game_moves: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sockets: int = 0
    cpu: float = 0.0  # CPU seconds the client process used while measuring


class TableRun:
    """The four seats of one table: when each move was sent, and who has seen its view."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}  # version the move was sent at → when
        self.told: dict[int, list[float]] = {}  # version a move made → each seat's latency
        self.done = asyncio.Event()
        self.moves = 0


async def seat_client(ws_base: str, url: str, run: TableRun, figures: Figures, measuring: list[bool], think: float) -> None:
    import websockets

    table, token = url.removeprefix("/table/").split("?token=")
    async with websockets.connect(f"{ws_base}/ws/{table}?token={token}", max_size=None, open_timeout=120,
                                  ping_interval=None) as ws:
        figures.sockets += 1
        acted_at = -1  # the version this seat last acted at (one move per version)
        said_next = False
        seen = -1  # the latest version this seat was shown (a seat coming online is told again, unchanged)
        pending: asyncio.Task[None] | None = None
        try:
            async for text in ws:
                now = time.monotonic()
                msg = json.loads(text)
                if msg["type"] == "error":
                    if measuring[0]:
                        figures.errors.append(msg.get("message", ""))
                    continue
                if msg["type"] != "view":
                    continue
                version = msg["version"]
                sent = run.sent.get(version - 1)
                fresh, seen = version > seen, max(seen, version)
                if sent is not None and fresh and measuring[0]:
                    told = run.told.setdefault(version, [])
                    told.append(now - sent)
                    figures.deliveries.append(now - sent)
                    if len(told) == 4:
                        figures.all_told.append(max(told))
                        figures.moves += 1
                        del run.told[version]
                if msg["game"]["over"]:
                    run.done.set()
                    return
                seat = msg["seat"]
                if not msg["ended"]:
                    said_next = False
                if msg["ended"] and seat in msg["waiting"] and not said_next:
                    said_next = True  # once per ended hand, though the others' Next hand come meanwhile
                    run.sent[version] = time.monotonic()
                    run.moves += 1
                    await ws.send(json.dumps({"type": "next"}))
                elif not msg["ended"] and msg["hand"]["to_act"] == seat and msg["hand"]["legal"] and acted_at != version:
                    acted_at = version
                    if pending is not None:
                        pending.cancel()
                    pending = asyncio.ensure_future(_act_later(ws, msg, run, think))
        finally:
            if pending is not None:
                pending.cancel()


async def _act_later(ws: Any, view: dict[str, Any], run: TableRun, think: float) -> None:
    await asyncio.sleep(think * random.uniform(0.5, 1.5))
    run.sent[view["version"]] = time.monotonic()
    run.moves += 1
    await ws.send(json.dumps({"type": "act", "action": choose(view)}))


async def post(client: Any, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """A lobby request, sent again if the connection it went on was closed meanwhile (an idle keep-alive)."""
    import httpx

    for attempt in range(5):
        try:
            answer: dict[str, Any] = (await client.post(url, json=body)).json()
            return answer
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


async def open_table(client: Any, base: str) -> list[str]:
    """A table of four people through the lobby: the creator's seat link and the three invitations redeemed."""
    created = await post(client, base + "/api/tables", {"humans": 4})
    if "url" not in created:
        raise RuntimeError(f"the lobby refused a table: {created}")
    urls = [created["url"]]
    for invite in created["invites"]:
        code = invite["url"].split("?invite=")[1]
        joined = await post(client, base + "/api/join", {"table": created["table"], "invite": code})
        urls.append(joined["url"])
    return urls


async def play_tables(base: str, tables: int, think: float, warmup: float, seconds: float, ready: Any,
                      start: Any) -> Figures:
    import httpx

    figures = Figures()
    measuring = [False]
    ws_base = base.replace("http://", "ws://")
    stop = asyncio.Event()

    async def one_table(client: Any) -> None:
        while not stop.is_set():
            urls = await open_table(client, base)
            run = TableRun()
            seats = [asyncio.ensure_future(seat_client(ws_base, url, run, figures, measuring, think)) for url in urls]
            stopped = asyncio.ensure_future(stop.wait())
            await asyncio.wait([stopped, asyncio.ensure_future(run.done.wait())], return_when=asyncio.FIRST_COMPLETED)
            if run.done.is_set() and measuring[0]:
                figures.games += 1
                figures.game_moves.append(run.moves)
            for task in (*seats, stopped):
                task.cancel()
            await asyncio.gather(*seats, return_exceptions=True)

    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        opened = [asyncio.ensure_future(one_table(client)) for _ in range(tables)]
        while figures.sockets < 4 * tables:  # every seat connected
            await asyncio.sleep(0.2)
            for task in opened:
                if task.done() and task.exception():
                    raise task.exception()  # type: ignore[misc]
        ready.set()
        await asyncio.get_running_loop().run_in_executor(None, start.wait)
        await asyncio.sleep(warmup)
        measuring[0] = True
        cpu = time.process_time()
        await asyncio.sleep(seconds)
        figures.cpu = time.process_time() - cpu
        measuring[0] = False
        stop.set()
        await asyncio.gather(*opened, return_exceptions=True)
    return figures


def client_process(base: str, tables: int, think: float, warmup: float, seconds: float, seed: int, ready: Any,
                   start: Any, out: Any) -> None:
    random.seed(seed)
    try:
        figures = asyncio.run(play_tables(base, tables, think, warmup, seconds, ready, start))
        out.put(figures)
    except BaseException as exc:  # noqa: BLE001 - told to the parent, which says it
        ready.set()
        out.put(f"{type(exc).__name__}: {exc}")


# ---------------------------------------------------------------- the parent: one measurement per N

def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def loop_lag(base: str, seconds: float) -> list[float]:
    """How long the lobby's list takes to come meanwhile, every 0.2 s (the server's event loop answers it)."""
    import httpx

    lags = []
    async with httpx.AsyncClient(timeout=30) as client:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t = time.monotonic()
            await client.get(base + "/api/tables")
            lags.append(time.monotonic() - t)
            await asyncio.sleep(0.2)
    return lags


def database_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def measure(tables: int, sync: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hakka-capacity-") as folder:
        database = Path(folder) / "tables.sqlite3"
        server = Server(database, tables, sync)
        try:
            time.sleep(1)
            rss_before = rss_kb(server.proc.pid)
            context = multiprocessing.get_context("spawn")
            start = context.Event()
            out = context.Queue()
            workers = []
            shares = [tables // args.client_processes + (i < tables % args.client_processes)
                      for i in range(args.client_processes)]
            readies = []
            for i, share in enumerate(s for s in shares if s):
                ready = context.Event()
                readies.append(ready)
                worker = context.Process(target=client_process, args=(server.base, share, args.think, args.warmup,
                                                                      args.seconds, args.seed + i, ready, start, out))
                worker.start()
                workers.append(worker)
            setup_started = time.monotonic()
            seated = all(ready.wait(max(1.0, setup_started + args.setup_seconds - time.monotonic())) for ready in readies)
            setup = time.monotonic() - setup_started
            start.set()
            time.sleep(args.warmup)
            rss_open = rss_kb(server.proc.pid)
            cpu_before = _cpu_seconds(server.proc.pid)
            waited_before = _runqueue_seconds(server.proc.pid)
            lags = asyncio.run(loop_lag(server.base, args.seconds))
            cpu = _cpu_seconds(server.proc.pid) - cpu_before
            waited = _runqueue_seconds(server.proc.pid) - waited_before
            rss_after = rss_kb(server.proc.pid)
            results = [out.get(timeout=600) for _ in workers]
            for worker in workers:
                worker.join(60)
        finally:
            err = server.stop()
        # the server has stopped: its database is checkpointed into the one file, as a backup would copy it
        with sqlite3.connect(database) as db:
            stored_moves = int(db.execute("SELECT count(*) FROM moves").fetchone()[0])
        db_bytes = database_bytes(database)
    failed = [r for r in results if isinstance(r, str)]
    if failed:
        raise RuntimeError(f"a client process failed: {failed[0]}\n{err[-2000:]}")
    figures = Figures()
    for r in results:
        figures.moves += r.moves
        figures.deliveries += r.deliveries
        figures.all_told += r.all_told
        figures.games += r.games
        figures.game_moves += r.game_moves
        figures.errors += r.errors
        figures.cpu += r.cpu
    moves_per_game = statistics.mean(figures.game_moves) if figures.game_moves else _moves_per_game()
    per_move = db_bytes / stored_moves if stored_moves else float("nan")  # with its share of tables and seats
    return {
        "seated": seated, "tables": tables, "sync": sync, "sockets": 4 * tables, "setup_s": setup, "moves": figures.moves,
        "moves_per_s": figures.moves / args.seconds,
        "p50_ms": percentile(figures.deliveries, 50) * 1e3, "p99_ms": percentile(figures.deliveries, 99) * 1e3,
        "all_p50_ms": percentile(figures.all_told, 50) * 1e3, "all_p99_ms": percentile(figures.all_told, 99) * 1e3,
        "max_ms": max(figures.all_told, default=float("nan")) * 1e3,
        "rss_before_mb": rss_before / 1024, "rss_mb": rss_after / 1024,
        "kb_per_table": (rss_open - rss_before) / tables,
        "db_bytes_per_move": per_move, "db_kb_per_game": per_move * moves_per_game / 1024,
        "moves_per_game": moves_per_game, "games": figures.games,
        "server_cpu": cpu / args.seconds, "server_wait": waited / args.seconds, "client_cpu": figures.cpu / args.seconds,
        "load": os.getloadavg()[0], "lag_p99_ms": percentile(lags, 99) * 1e3,
        "errors": len(figures.errors), "first_error": figures.errors[0] if figures.errors else "",
    }


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _runqueue_seconds(pid: int) -> float:
    """How long the server's event loop (its main thread) has waited for a CPU while ready to run (Linux)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9


def _moves_per_game(games: int = 20) -> float:
    """The mean number of moves of a four-hand game played by :func:`choose` at every seat (in process)."""
    from hakka_play.table import Table

    counts = []
    for g in range(games):
        table = Table(humans=range(4), seed=g)
        while not table.game.over:
            if table.waiting:
                for waiting in sorted(table.waiting):
                    table.next_hand(waiting)
                continue
            seat = table.to_act
            assert seat is not None
            table.act(seat, choose(table.view(seat)))
        counts.append(table.moves)
    return statistics.mean(counts)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", default="50,200,500", help="the numbers of tables to measure, comma-separated")
    p.add_argument("--seconds", type=float, default=60.0, help="how long each N is measured (default 60)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds of play before measuring (default 5)")
    p.add_argument("--think", type=float, default=2.0,
                   help="mean seconds a seat waits before its move (default 2; a person takes longer)")
    p.add_argument("--sync", default="full,normal",
                   help="hakka-play --sync modes to measure side by side, comma-separated (default full,normal)")
    p.add_argument("--client-processes", type=int, default=1, help="processes running the clients (default 1)")
    p.add_argument("--setup-seconds", type=float, default=600.0,
                   help="the longest the tables may take to be created and seated (default 600)")
    p.add_argument("--target-ms", type=float, default=250.0, help="the p99 latency aimed at (default 250)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    counts = [int(n) for n in args.tables.split(",") if n.strip()]
    print(f"hakka-play capacity: {os.cpu_count()} cores, think {args.think:g} s, {args.seconds:g} s measured "
          f"after {args.warmup:g} s, clients in {args.client_processes} process(es), database: SQLite file")
    print(f"{'tables':>6} {'sync':>6} {'sockets':>7} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'all p50':>7} {'all p99':>7} "
          f"{'kB/table':>8} {'DB B/move':>9} {'DB kB/game':>10} {'srv CPU':>7} {'lag p99':>7}  verdict")
    for n, sync in ((n, sync) for n in counts for sync in args.sync.split(",")):
        r = measure(n, sync.strip(), args)
        ok = r["all_p99_ms"] < args.target_ms and not r["errors"] and r["seated"]
        print(f"{r['tables']:>6} {r['sync']:>6} {r['sockets']:>7} {r['moves_per_s']:>8.1f} {r['p50_ms']:>7.1f} {r['p99_ms']:>7.1f} "
              f"{r['all_p50_ms']:>7.1f} {r['all_p99_ms']:>7.1f} {r['kb_per_table']:>8.1f} {r['db_bytes_per_move']:>9.0f} "
              f"{r['db_kb_per_game']:>10.1f} {r['server_cpu']:>6.0%} {r['lag_p99_ms']:>7.1f}  "
              + (f"p99 < {args.target_ms:g} ms" if ok
                 else f"not all {n} tables seated within {args.setup_seconds:g} s: the figures are of fewer"
                 if not r["seated"] else f"p99 >= {args.target_ms:g} ms" if not r["errors"]
                 else f"{r['errors']} errors: {r['first_error']}"), flush=True)
        print(f"       ({r['moves']} moves, {r['games']} games finished, {r['moves_per_game']:.0f} moves per game, "
              f"max {r['max_ms']:.0f} ms, server RSS {r['rss_before_mb']:.0f} → {r['rss_mb']:.0f} MB, "
              f"set up in {r['setup_s']:.1f} s)", flush=True)
        print(f"       (server CPU {r['server_cpu']:.0%}, its loop waited for a CPU {r['server_wait']:.0%} of the time; "
              f"clients' CPU {r['client_cpu']:.0%}; load average {r['load']:.1f} on {os.cpu_count()} cores)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
