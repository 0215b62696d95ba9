"""The player page's rating graph: a polyline scaled into its box."""

from __future__ import annotations

from games.views import rating_graph


def test_nothing_to_draw_before_two_points():
    assert rating_graph.draw([]) is None
    assert rating_graph.draw([1000]) is None


def test_the_line_runs_left_to_right_highest_at_the_top():
    graph = rating_graph.draw([1000, 1100, 1050])
    assert graph is not None and (graph.low, graph.high) == (1000, 1100)
    points = [tuple(map(float, p.split(","))) for p in graph.points.split()]
    xs = [x for x, _ in points]
    assert xs == sorted(xs) and xs[0] == rating_graph.PAD
    assert xs[-1] == rating_graph.WIDTH - rating_graph.PAD
    ys = [y for _, y in points]
    assert ys[1] == rating_graph.PAD  # the highest rating touches the top
    assert ys[0] == rating_graph.HEIGHT - rating_graph.PAD  # the lowest the bottom
    assert (graph.last_x, graph.last_y) == points[-1]


def test_a_flat_history_draws_a_flat_line():
    graph = rating_graph.draw([1200, 1200])
    assert graph is not None
    assert len({p.split(",")[1] for p in graph.points.split()}) == 1
