"""``hakka-play`` over a network, as started from the command line: TLS, forwarded headers, the online preset.

* ``--certfile``/``--keyfile`` go to uvicorn: the server speaks HTTPS and WSS with a self-signed
  certificate made here (``openssl``), and a seat plays over ``wss://``;
* forwarded headers are trusted only from ``--forwarded-allow-ips``: by default an
  ``X-Forwarded-For`` sent from 127.0.0.2 changes nothing (the per-address bound counts 127.0.0.2),
  and from a trusted proxy address it names the client the bound counts;
* ``--online`` turns the turn clock on, and the command line refuses half a certificate.
"""

from __future__ import annotations

import json
import shutil
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("websockets", reason="the play extra's test client: pip install -e '.[play]'")
pytest.importorskip("uvicorn", reason="the play extra: pip install -e '.[play]'")

from websockets.sync.client import connect  # noqa: E402

from .conftest import _free_port  # noqa: E402
from .test_durable import Process, processes  # noqa: E402, F401 - the fixture, shared

ROOT = Path(__file__).resolve().parents[2]


def Server(tmp: Path, *args: str, verify: Path | None = None) -> Process:
    """``hakka-play`` started from the command line on a fresh database and a free port."""
    return Process(tmp / "tables.sqlite3", _free_port(), *args, verify=verify)


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (openssl), and its key."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed: no certificate to test TLS with")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def test_certfile_and_keyfile_serve_https_and_a_seat_plays_over_wss(tmp_path: Path, processes: list[Process]) -> None:  # noqa: F811 - the fixture
    cert, key = _certificate(tmp_path)
    server = Server(tmp_path, "--certfile", str(cert), "--keyfile", str(key), verify=cert)
    processes.append(server)
    seat = server.base + server.link("your seat 0")  # the links it prints are https (the base stripped)
    assert any(line.startswith(f"  your seat 0: {server.base}/table/") for line in server.lines)
    page = httpx.get(seat, verify=str(cert), timeout=10)
    assert page.status_code == 200 and "table.js" in page.text
    with pytest.raises(httpx.TransportError):  # plain HTTP is not served on the TLS port
        httpx.get(server.base.replace("https", "http") + "/api/tables", timeout=5)
    table, token = seat.removeprefix(server.base + "/table/").split("?token=")
    context = ssl.create_default_context(cafile=str(cert))
    with connect(f"wss://127.0.0.1:{server.base.rsplit(':', 1)[1]}/ws/{table}?token={token}", ssl=context,
                 open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        view = json.loads(ws.recv(timeout=10))
        assert view["type"] == "view" and view["hand"]["legal"] is not None
        ws.send(json.dumps({"type": "act", "action": view["hand"]["legal"]["actions"][0]}))
        after = json.loads(ws.recv(timeout=10))
        assert after["type"] == "view" and after["version"] > view["version"]


def _create(base: str, address: str, forwarded: str) -> int:
    transport = httpx.HTTPTransport(local_address=address)
    with httpx.Client(transport=transport, timeout=10) as client:
        answer = client.post(base + "/api/tables", json={"humans": 1}, headers={"X-Forwarded-For": forwarded})
        return int(answer.status_code)


def test_forwarded_headers_are_not_trusted_by_default(tmp_path: Path, processes: list[Process]) -> None:  # noqa: F811 - the fixture
    server = Server(tmp_path, "--max-tables-per-address", "1")
    processes.append(server)
    # 127.0.0.1 (which uvicorn alone would trust) claims to forward two different clients: the bound still
    # counts 127.0.0.1 itself, so a page or script on the server's own machine cannot slip past it
    assert _create(server.base, "127.0.0.1", "203.0.113.1") == 200
    assert _create(server.base, "127.0.0.1", "203.0.113.2") == 429
    assert _create(server.base, "127.0.0.2", "203.0.113.3") == 200
    assert _create(server.base, "127.0.0.2", "203.0.113.4") == 429
    assert _create(server.base, "127.0.0.3", "203.0.113.1") == 200  # another real address has its own bound


def test_forwarded_headers_are_trusted_from_the_proxies_named(tmp_path: Path, processes: list[Process]) -> None:  # noqa: F811 - the fixture
    server = Server(tmp_path, "--max-tables-per-address", "1", "--forwarded-allow-ips", "127.0.0.2")
    processes.append(server)
    assert _create(server.base, "127.0.0.2", "203.0.113.1") == 200  # the proxy's clients are told apart
    assert _create(server.base, "127.0.0.2", "203.0.113.2") == 200
    assert _create(server.base, "127.0.0.2", "203.0.113.1") == 429  # and each is bounded
    assert _create(server.base, "127.0.0.3", "203.0.113.9") == 200  # not a proxy: its own address counts
    assert _create(server.base, "127.0.0.3", "203.0.113.8") == 429


def test_online_turns_the_clock_on_and_half_a_certificate_is_refused(tmp_path: Path, processes: list[Process]) -> None:  # noqa: F811 - the fixture
    server = Server(tmp_path, "--online")
    processes.append(server)
    assert any("turn clock: 60 s" in line for line in server.lines), server.lines
    seat = server.link("your seat 0").removeprefix("/table/")
    table, token = seat.split("?token=")
    with connect(f"ws://127.0.0.1:{server.base.rsplit(':', 1)[1]}/ws/{table}?token={token}", open_timeout=10) as ws:
        json.loads(ws.recv(timeout=10))
        assert json.loads(ws.recv(timeout=10))["clock"]["seconds"] == 60
    cert, _key = tmp_path / "c.pem", tmp_path / "k.pem"
    cert.write_text("not used")
    refused = subprocess.run([sys.executable, "-m", "hakka_play.cli", "--no-browser", "--certfile", str(cert)],
                             capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert refused.returncode == 2 and "--certfile and --keyfile go together" in refused.stderr
