"""``hakka-play``: a local table in the browser, or the replay viewer.

    hakka-play                         a table, you at seat 0, rule-aware bots at the others
    hakka-play --humans 2              two people (each gets a seat link), two bots
    hakka-play --option D7=any-suit    the table plays under that decision option
    hakka-play --database t.sqlite3    keep the tables there (a restart resumes them)
    hakka-play --online --host 0.0.0.0 --certfile cert.pem --keyfile key.pem --allow-host cards.example.org
                                       serve players over a network: a turn clock, TLS
    hakka-play --replay obs-discard-hidden-from-others   step through a scenario
    hakka-play --replay reports/fuzz/x.trace.json        or a fuzz trace
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import webbrowser
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from conformance.replay import ReplayError, load_replay
from reference_engine import Profile, SetupError

from .bots import BOTS
from .doors import LOOPBACK, Limits
from .store import SYNC, SQLiteStore, StoreError, default_path
from .table import Table


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hakka-play", description="Play Hakka Cards at a table in the browser, "
                                "against bots or with friends, or replay a scenario or fuzz trace.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks a free one)")
    p.add_argument("--humans", "--seats", dest="humans", type=int, default=1, metavar="N",
                   help="people at the table, 1-4 (seats 0..N-1); bots take the other seats (default 1)")
    p.add_argument("--bot", choices=tuple(BOTS), default="rule",
                   help="which bots fill the seats (default rule; ismcts when OpenSpiel is installed)")
    p.add_argument("--option", action="append", default=[], metavar="Dn=OPTION",
                   help="a decision option of spec/decisions.yaml, e.g. D7=any-suit (repeatable)")
    p.add_argument("--seed", type=int, help="make the deals repeatable")
    p.add_argument("--bot-delay", type=float, default=0.6, metavar="SECONDS", help="pause before a bot acts (default 0.6)")
    p.add_argument("--no-browser", action="store_true", help="print the links instead of opening a browser")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a host name (or address) the table answers to besides this machine's loopback names, "
                        "e.g. the name friends on your network use (repeatable); pages of other hosts are refused")
    p.add_argument("--max-tables", type=int, default=Limits.max_tables, metavar="N",
                   help=f"tables open at once (default {Limits.max_tables}); idle and finished ones are freed")
    p.add_argument("--max-tables-per-address", type=int, default=Limits.max_tables_per_address, metavar="N",
                   help=f"open tables one client address may create in the lobby (default {Limits.max_tables_per_address})")
    p.add_argument("--messages-per-second", type=int, default=Limits.messages_per_second, metavar="N",
                   help=f"messages one connection may send in a second (default {Limits.messages_per_second}); "
                        "the rest are refused")
    p.add_argument("--max-sockets-per-seat", type=int, default=Limits.max_sockets_per_seat, metavar="N",
                   help=f"connections (tabs) open on one seat (default {Limits.max_sockets_per_seat})")
    p.add_argument("--sync", choices=tuple(SYNC), default="full",
                   help="what each accepted move waits for before anyone is told: full (the disk has it; it survives "
                        "a power cut; default) or normal (the operating system has it; it survives the server being "
                        "killed, not a power cut, and a slow disk no longer bounds the moves per second)")
    p.add_argument("--idle-minutes", type=float, default=Limits.idle_seconds / 60, metavar="M",
                   help=f"free a table nobody has used for M minutes (default {Limits.idle_seconds / 60:g})")
    p.add_argument("--database", metavar="PATH", default=None,
                   help="the SQLite file that keeps every table and accepted move, so that a restart resumes them "
                        f"(default {default_path()}; ':memory:' keeps nothing)")
    p.add_argument("--turn-seconds", type=float, default=None, metavar="S",
                   help="a turn clock: a person who has not acted within S seconds is played for by a bot until they "
                        "come back (default: off; --online sets it to "
                        f"{ONLINE_TURN_SECONDS:g}); tables made in the lobby may choose their own")
    p.add_argument("--online", action="store_true",
                   help=f"the preset for serving players over a network: --turn-seconds {ONLINE_TURN_SECONDS:g} "
                        "(unless given) and --no-browser")
    p.add_argument("--keep-days", type=float, default=Limits.keep_days, metavar="DAYS",
                   help=f"keep each finished game (its page, replay, trace and scenarios) for DAYS days "
                        f"(default {Limits.keep_days:g}), then delete it")
    p.add_argument("--certfile", metavar="PATH", help="serve HTTPS and WSS with this certificate (PEM), "
                   "passed to uvicorn; needs --keyfile")
    p.add_argument("--keyfile", metavar="PATH", help="the certificate's private key (PEM); needs --certfile")
    p.add_argument("--forwarded-allow-ips", metavar="ADDRESSES", default=None,
                   help="behind a reverse proxy: the proxy addresses whose X-Forwarded-For and X-Forwarded-Proto "
                        "headers are trusted, comma-separated (uvicorn's option; '*' trusts any). "
                        "Default: none are trusted, the connection's own address counts")
    p.add_argument("--replay", metavar="SCENARIO", help="a scenario ID of the corpus, a scenario .yaml file "
                   "(file.yaml#id for one of several) or a fuzz .trace.json: open it in the replay viewer")
    return p


ONLINE_TURN_SECONDS = 60.0
"""The turn clock of ``--online``: a minute, long enough to think over a discard, short enough that three
people are not kept waiting long by a fourth who has gone."""


def uvicorn_options(args: argparse.Namespace) -> dict[str, Any]:
    """What the command line hands to :func:`uvicorn.run` besides the app, host and port.

    Forwarded headers are trusted only from the addresses given (uvicorn itself trusts 127.0.0.1 by
    default, so a page on this machine could claim any address and slip past the per-address bounds).
    """
    out: dict[str, Any] = {"log_level": "warning", "ws_max_size": 64 * 1024,
                           "proxy_headers": bool(args.forwarded_allow_ips)}
    if args.forwarded_allow_ips:
        out["forwarded_allow_ips"] = args.forwarded_allow_ips
    if args.certfile:
        out["ssl_certfile"], out["ssl_keyfile"] = args.certfile, args.keyfile
    return out


def _check_network(args: argparse.Namespace) -> str | None:
    """Why the network options cannot be used together, or ``None``."""
    if bool(args.certfile) != bool(args.keyfile):
        return "--certfile and --keyfile go together: give both (the certificate and its private key) or neither"
    for flag, path in (("--certfile", args.certfile), ("--keyfile", args.keyfile)):
        if path and not Path(path).is_file():
            return f"{flag} {path}: no such file"
    if args.turn_seconds is not None and not args.turn_seconds > 0:
        return "--turn-seconds must be above 0 (leave it out for no clock)"
    if not args.keep_days > 0:
        return "--keep-days must be above 0"
    return None


def _preset(args: argparse.Namespace) -> None:
    """``--online``: the turn clock on (unless ``--turn-seconds`` says otherwise), no browser opened here."""
    if args.online:
        args.no_browser = True
        if args.turn_seconds is None:
            args.turn_seconds = ONLINE_TURN_SECONDS


def parse_options(items: Sequence[str]) -> Profile:
    """``["D7=any-suit", …]`` → a profile; a bad item raises :class:`SetupError` naming it."""
    options: dict[str, str] = {}
    for item in items:
        decision, eq, option = item.partition("=")
        if not eq or not decision.strip() or not option.strip():
            raise SetupError(f"--option {item!r}: write DECISION=OPTION, e.g. D7=any-suit")
        options[decision.strip().upper()] = option.strip()
    try:
        return Profile.from_options(options)
    except SetupError as exc:
        raise SetupError(f"--option: {exc.message}", rule=exc.rule) from None


def _replays(ref: str | None) -> dict[str, str] | None:
    """The replay named by ``--replay`` as the viewer's ``cli`` entry; ``None`` (said why) when it cannot load."""
    if not ref:
        return {}
    try:
        replay = load_replay(ref)
    except ReplayError as exc:
        print(f"hakka-play: error: {exc}", file=sys.stderr)
        return None
    except Exception as exc:  # noqa: BLE001 - a scenario file with problems: its InputError lists them
        print(f"hakka-play: error: {ref}: {exc}", file=sys.stderr)
        return None
    if replay["problem"]:
        print(f"hakka-play: note: {replay['problem']}", file=sys.stderr)
    return {"cli": ref}


def _announce(args: argparse.Namespace, server: Any, table: Table, profile: Profile, base: str, own: str, first: str,
              mine: int | None) -> None:
    """What the command line prints once the server is ready: where it is, and every link to hand out."""
    print(f"Hakka Cards table at {base}  (Ctrl-C stops it)")
    if args.host not in LOOPBACK and not args.allow_host:
        print("note: the table answers only to the names it is reached by: add --allow-host NAME for each "
              "name or address your friends' browsers use (e.g. this machine's address on your network)")
    if args.turn_seconds:
        print(f"turn clock: {args.turn_seconds:g} s, then a bot plays for whoever is away until they come back")
    if profile.changed():
        print("options: " + ", ".join(f"{k}={v}" for k, v in profile.changed().items()))
    print(f"  your seat {mine}: {own}")
    for link in server.invites(table, base):  # single-use: the first person to open one takes that seat
        print(f"  invitation to seat {link['seat']}: {link['url']}")
    print(f"  spectators:    {server.watch_link(table, base)}")
    print(f"  replay viewer: {base}/replay")
    if args.replay:
        print(f"  this replay:   {first}")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        profile = parse_options(args.option)
    except SetupError as exc:
        print(f"hakka-play: error: {exc}", file=sys.stderr)
        return 2
    if not 1 <= args.humans <= 4:
        print("hakka-play: error: --humans must be 1-4", file=sys.stderr)
        return 2
    problem = _check_network(args)
    if problem:
        print(f"hakka-play: error: {problem}", file=sys.stderr)
        return 2
    _preset(args)
    replays = _replays(args.replay)
    if replays is None:
        return 2
    try:
        import uvicorn

        from .server import PlayServer
    except ImportError as exc:
        print(f"hakka-play: error: the table needs the `play` extra ({exc.name} is missing): "
              "pip install -e '.[play]'", file=sys.stderr)
        return 2
    limits = Limits(max_tables=args.max_tables, max_sockets_per_seat=args.max_sockets_per_seat,
                    max_tables_per_address=args.max_tables_per_address, messages_per_second=args.messages_per_second,
                    idle_seconds=args.idle_minutes * 60, keep_days=args.keep_days)
    hosts = [*LOOPBACK, *args.allow_host] + ([] if args.host in ("0.0.0.0", "::") else [args.host])
    try:
        store = SQLiteStore(args.database or default_path(), sync=args.sync)
        server = PlayServer(bot_delay=args.bot_delay, replays=replays, limits=limits, allowed_hosts=hosts, store=store,
                            turn_seconds=args.turn_seconds)
    except StoreError as exc:
        print(f"hakka-play: error: {exc}", file=sys.stderr)
        return 2
    if len(server.open):
        print(f"resumed {len(server.open)} open table(s) of {store.path}: their seat and invitation links work again")
    table = server.add_table(Table(humans=range(args.humans), profile=profile, seed=args.seed, bot=args.bot,
                                   turn_seconds=args.turn_seconds))
    mine = table.take_free()
    port = args.port
    if port == 0:
        with socket.socket() as s:
            s.bind((args.host, 0))
            port = s.getsockname()[1]
    host = f"[{args.host}]" if ":" in args.host else args.host
    base = f"{'https' if args.certfile else 'http'}://{host}:{port}"
    own = f"{base}/table/{table.id}?token={table.seats[mine or 0].token}"
    first = f"{base}/replay/view?id=cli" if args.replay else own
    _announce(args, server, table, profile, base, own, first, mine)
    if not args.no_browser:
        threading.Timer(0.8, webbrowser.open, args=(first,)).start()
    try:
        uvicorn.run(server.app(), host=args.host, port=port, **uvicorn_options(args))
    except KeyboardInterrupt:
        pass
    finally:
        store.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
