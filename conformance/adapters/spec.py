"""Engine specs: the ``--engine`` value parsed, and the adapter it makes."""

from __future__ import annotations

import dataclasses
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineSpecError
from .base import Adapter, engine_environment
from .direct import DirectAdapter
from .inprocess import InProcessAdapter
from .process import SubprocessAdapter

# --------------------------------------------------------------------------- engine specs

REFERENCE_FACTORY = ("reference_engine.wire", "Session")

ENGINE_SPEC_HELP = """\
ENGINE is one of:
  reference                 the reference engine in this process
                            (python:reference_engine.wire:Session)
  reference-direct          the reference engine called directly in this process:
                            no JSON copies, no worker thread, no timeout (the
                            fastest road; the fuzzer's reference)
  reference-subprocess      the reference engine as a subprocess
                            (cmd:<this python> -m reference_engine)
  python:MODULE:FACTORY     in-process: FACTORY() returns an object whose
                            handle(message: dict) -> dict speaks the protocol.
                            This imports and runs MODULE's code inside the
                            runner with its rights: only for code you trust.
                            A hung or memory-hungry engine cannot be fully
                            contained in-process; cmd: can.
  cmd:COMMAND               a subprocess speaking line-delimited JSON;
                            COMMAND is split like a shell would (shlex) but
                            never run through a shell, e.g.
                            "cmd:node my-engine/adapter.js --fast".
                            It runs in its own process group (killed, children
                            too, on timeout, crash or end of run) with a
                            minimal environment (PATH, HOME, locale, TMPDIR,
                            PYTHONPATH, VIRTUAL_ENV); add more with
                            --engine-env NAME or --engine-env NAME=VALUE.
"""


@dataclass(frozen=True)
class EngineSpec:
    """A parsed ``--engine`` value."""

    text: str
    kind: str  # "python" (in-process, worker thread, JSON copies) | "direct" (in-process, called as it is) | "cmd"
    module: str = ""
    factory: str = ""
    argv: tuple[str, ...] = ()

    env: tuple[str, ...] = ()  # more environment for a cmd: engine: NAME or NAME=VALUE (--engine-env)
    target: Callable[[], Any] | None = field(default=None, compare=False)
    """An engine factory given as an object rather than by ``MODULE:FACTORY`` (tests, the mutant catalogue)."""
    isolate: bool = True
    """For ``python``: copy every message through JSON (False: answers are taken as they are, still on the
    worker thread under the timeout)."""

    def make_adapter(self, timeout: float | None) -> Adapter:
        """The adapter of this engine; ``timeout`` bounds each request (a ``direct`` engine has none)."""
        if self.kind == "direct":
            return DirectAdapter(self.module, self.factory, target=self.target, label=self.text)
        if self.kind == "python":
            return InProcessAdapter(self.module, self.factory, timeout, copy=self.isolate, target=self.target,
                                    label=self.text if self.target is not None else None)
        return SubprocessAdapter(list(self.argv), timeout, env=engine_environment(self.env))

    def called_directly(self, timeout: float | None) -> EngineSpec:
        """This spec with an in-process engine's answers taken as they are: ``direct`` when nothing bounds
        a request (``timeout`` None), else ``python`` without JSON copies. A ``cmd`` spec is unchanged."""
        if self.kind != "python":
            return self
        if timeout is None:
            return dataclasses.replace(self, kind="direct")
        return dataclasses.replace(self, isolate=False)


def object_spec(factory: Callable[[], Any], label: str | None = None, *, direct: bool = False) -> EngineSpec:
    """The spec of an engine given as a factory object (``factory().handle(message) -> dict``)."""
    name = getattr(factory, "__qualname__", None) or repr(factory)
    return EngineSpec(label or f"python-object:{name}", "direct" if direct else "python", "<object>", name,
                      target=factory)


def parse_engine_spec(text: str) -> EngineSpec:
    """Parse an engine spec (see :data:`ENGINE_SPEC_HELP`); raise EngineSpecError if bad."""
    spec = text.strip()
    if spec == "reference":
        return EngineSpec(text, "python", *REFERENCE_FACTORY)
    if spec == "reference-direct":
        return EngineSpec(text, "direct", *REFERENCE_FACTORY)
    if spec == "reference-subprocess":
        return EngineSpec(text, "cmd", argv=(sys.executable, "-m", "reference_engine"))
    if spec.startswith("python:"):
        rest = spec[len("python:"):]
        module, sep, factory = rest.rpartition(":")
        if not sep or not module or not factory:
            raise EngineSpecError(f"bad engine spec {text!r}: expected python:MODULE:FACTORY")
        if not all(p.isidentifier() for p in module.split(".") + factory.split(".")):
            raise EngineSpecError(f"bad engine spec {text!r}: {module!r} / {factory!r} is not a Python module / name")
        return EngineSpec(text, "python", module, factory)
    if spec.startswith("cmd:"):
        try:
            argv = shlex.split(spec[len("cmd:"):])
        except ValueError as exc:
            raise EngineSpecError(f"bad engine spec {text!r}: {exc}") from None
        if not argv:
            raise EngineSpecError(f"bad engine spec {text!r}: no command after cmd:")
        return EngineSpec(text, "cmd", argv=tuple(argv))
    raise EngineSpecError(
        f"bad engine spec {text!r}: expected reference, reference-subprocess, reference-direct, python:MODULE:FACTORY "
        "or cmd:COMMAND")

