"""Play it: a browser table on the reference engine, with bots and hidden hands, and a replay viewer.

A product of the top layer (shared/ARCHITECTURE.md): it holds no rule of its own. The table runs
:class:`reference_engine.Game` and sends each seat only ``observation(seat)`` and its legal actions
(:mod:`.table`); the replay viewer replays scenarios loaded by :mod:`conformance.loader` and fuzz
traces through :class:`conformance.engine.Engine` (:mod:`conformance.replay`, a harness tool: this
package only serves its pages). The web server (:mod:`.server`,
Starlette and uvicorn) and the ``hakka-play`` command (:mod:`.cli`) need the ``play`` extra; the
table, the bots and the replay model need nothing beyond the suite's own dependencies.
"""
