"""The exact card-play solver (all cards known): :mod:`engine.solver.search` on the
engine's masks, :mod:`engine.solver.solve` on real deals and deal records.
:mod:`engine.solver.native` picks the compiled search when it matches its source."""

from engine.solver.native import choose

choose()
