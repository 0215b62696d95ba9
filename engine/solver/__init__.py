"""The exact card-play solver (all cards known): :mod:`engine.solver.search` on the
engine's masks, :mod:`engine.solver.solve` on real deals and deal records."""
