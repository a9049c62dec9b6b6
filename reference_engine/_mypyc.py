"""``mypyc_attr`` and ``i64`` for the two builds of the engine (setup.py): mypyc reads it, Python ignores it; and :func:`blank`.

mypyc reads ``@mypyc_attr(...)`` on a class at compile time (by the name
``mypy_extensions.mypyc_attr``, which is what the type checker sees here); at
run time the decorator is a no-op, so neither build needs ``mypy_extensions``
installed: the engine stays standard-library only. This module stays
interpreted (setup.py's ``INTERPRETED``): compiled, its ``else`` branch would be
dropped as unreachable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

_T = TypeVar("_T")

if TYPE_CHECKING:
    from mypy_extensions import i64 as i64  # compiled: a signed 64-bit machine word, whose arithmetic wraps
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    i64 = int  # interpreted: a plain int (no wrapping: code that relies on it says so, cards.seeded_deck)

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        return lambda cls: cls


def blank(cls: type[_T]) -> _T:
    """An instance of ``cls`` without ``__init__`` (what ``object.__new__(cls)`` gives a plain class).

    For a class that builds its instances field by field (``Hand``): compiled
    classes refuse ``object.__new__``, and mypyc cannot compile ``cls.__new__(cls)``;
    here, interpreted, it reaches the compiled class's own ``__new__``, which
    skips ``__init__`` for a ``@mypyc_attr(serializable=True)`` class.
    """
    return cls.__new__(cls)
