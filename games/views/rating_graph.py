"""A rating history drawn as a small server-rendered SVG (no script)."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 320
HEIGHT = 90
PAD = 6


@dataclass(frozen=True)
class Graph:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    low: int
    high: int
    last_x: float
    last_y: float


def draw(values: list[int]) -> Graph | None:
    """The polyline of ``values`` (oldest first) scaled into the box; ``None``
    with fewer than two values (nothing to draw a line through)."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    coords = [
        (PAD + i * step, HEIGHT - PAD - (v - low) * (HEIGHT - 2 * PAD) / span)
        for i, v in enumerate(values)
    ]
    return Graph(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
        low=low,
        high=high,
        last_x=round(coords[-1][0], 1),
        last_y=round(coords[-1][1], 1),
    )
