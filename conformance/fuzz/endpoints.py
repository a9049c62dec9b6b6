"""The two engines a differential run talks to, both through :class:`~conformance.engine.Engine`.

- the reference: ``reference-direct`` (:class:`~conformance.adapters.DirectAdapter`),
  called on this thread with no JSON copies, because it is asked for every
  hand; its answers are not validated (they are the reference's shapes);
- the candidate: any engine spec, an :class:`~conformance.adapters.EngineSpec`,
  an :class:`~conformance.engine.Engine` or a factory object, reached exactly
  as the runner reaches it (handshake, restart after a crash, timeout). An
  in-process candidate's answers are compared as they are (no JSON copies)
  unless ``isolate`` is asked.

Schema validation of every answer costs about half a millisecond per
``state``; the fuzzer validates an answer only when it is about to call it a
disagreement (a broken answer is then a protocol error, as in the runner), or
every answer when asked (``--validate``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..adapters import Adapter, EngineSpec, object_spec, parse_engine_spec
from ..engine import Engine
from ..paths import default_spec_dir
from ..schemas import Schemas, load_schemas

Message = dict[str, Any]


def default_schemas(spec_dir: Path | None = None) -> Schemas:
    return load_schemas((spec_dir or default_spec_dir()) / "schema")


def reference_engine(factory: Callable[[], Any] | None = None, schemas: Schemas | None = None) -> Engine:
    """The reference engine (or the engine ``factory`` makes, a variant of it) called directly."""
    spec = parse_engine_spec("reference-direct") if factory is None else object_spec(factory, direct=True)
    return Engine(spec, schemas or default_schemas(), timeout=None, validate=False)


def candidate_spec(engine: str | EngineSpec | Callable[[], Any], *, label: str | None = None,
                   direct: bool = True, timeout: float | None = None) -> EngineSpec:
    """The spec of the engine under test: a spec text, a spec, or a factory object; ``direct``: an
    in-process engine's answers are taken as they are (:meth:`EngineSpec.called_directly`)."""
    if isinstance(engine, str):
        spec = parse_engine_spec(engine)
    elif isinstance(engine, EngineSpec):
        spec = engine
    elif callable(engine):
        spec = object_spec(engine, label)
    else:
        raise TypeError(f"cannot make a candidate engine from {engine!r}")
    return spec.called_directly(timeout) if direct else spec


def open_candidate(engine: Any, *, timeout: float | None = 10.0, validate: bool = False,
                   schemas: Schemas | None = None, label: str | None = None, direct: bool = True) -> Engine:
    """The engine under test as an :class:`Engine` (an Engine given is returned as it is; an
    :class:`~conformance.adapters.Adapter` is put behind one)."""
    if isinstance(engine, Engine):
        return engine
    if isinstance(engine, Adapter):
        spec = EngineSpec(label or str(getattr(engine, "label", type(engine).__name__)), "adapter")
        return Engine(spec, schemas or default_schemas(), timeout, adapter=engine, validate=validate)
    spec = candidate_spec(engine, label=label, direct=direct, timeout=timeout)
    return Engine(spec, schemas or default_schemas(), timeout, validate=validate)

