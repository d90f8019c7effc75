"""Rating history as inline SVG, drawn on the server (no chart library, works without JS)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 28


@dataclass(frozen=True)
class ChartPoint:
    rating: float
    low: float
    high: float
    label: str  # e.g. "v3 after match 120" (shown as the point's tooltip)
    version: int | None = None  # a new version starts a new segment, marked on the chart


def _scale(
    values: Sequence[float], lo: float, hi: float, out_lo: float, out_hi: float
) -> list[float]:
    span = hi - lo or 1.0
    return [out_lo + (v - lo) / span * (out_hi - out_lo) for v in values]


def _nice_bounds(lo: float, hi: float) -> tuple[float, float]:
    step = 50.0
    lo, hi = (lo // step) * step, -((-hi) // step) * step
    if hi - lo < step:
        hi = lo + step
    return lo, hi


def rating_chart(points: Sequence[ChartPoint], *, title: str) -> SafeString:
    """An SVG line of the rating with its 95% interval as a band, one x step per point."""
    if not points:
        return mark_safe("")
    lo, hi = _nice_bounds(min(p.low for p in points), max(p.high for p in points))
    n = len(points)
    xs = (
        _scale(range(n), 0, max(n - 1, 1), LEFT, WIDTH - RIGHT)
        if n > 1
        else [(LEFT + WIDTH - RIGHT) / 2]
    )
    ys = _scale([p.rating for p in points], lo, hi, HEIGHT - BOTTOM, TOP)
    lows = _scale([p.low for p in points], lo, hi, HEIGHT - BOTTOM, TOP)
    highs = _scale([p.high for p in points], lo, hi, HEIGHT - BOTTOM, TOP)
    band = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, highs, strict=True))
    band += " " + " ".join(
        f"{x:.1f},{y:.1f}" for x, y in zip(reversed(xs), reversed(lows), strict=True)
    )
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))
    grid = []
    for value in (lo, (lo + hi) / 2, hi):
        (y,) = _scale([value], lo, hi, HEIGHT - BOTTOM, TOP)
        grid.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="axis" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{value:.0f}</text>"
        )
    dots = "".join(
        f'<circle class="dot" cx="{x:.1f}" cy="{y:.1f}" r="2.5"><title>{escape(p.label)}: '
        f"{p.rating:.0f} ({p.low:.0f} to {p.high:.0f})</title></circle>"
        for x, y, p in zip(xs, ys, points, strict=True)
    )
    whiskers = (
        "".join(  # a lone point has no band to show its interval: draw it as a bar
            f'<line class="whisker" x1="{x:.1f}" x2="{x:.1f}" y1="{lo_y:.1f}" y2="{hi_y:.1f}"/>'
            for x, lo_y, hi_y in zip(xs, lows, highs, strict=True)
        )
        if n == 1
        else ""
    )
    markers = "".join(
        f'<line class="version" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{HEIGHT - BOTTOM}"/>'
        f'<text class="axis" x="{x + 3:.1f}" y="{TOP + 10}">v{p.version}</text>'
        for i, (x, p) in enumerate(zip(xs, points, strict=True))
        if i > 0 and p.version is not None and p.version != points[i - 1].version
    )
    last = points[-1]
    summary = (
        f"{title}: {n} rating points, latest {last.rating:.0f} "
        f"(95% interval {last.low:.0f} to {last.high:.0f})"
    )
    svg = (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(summary)}" preserveAspectRatio="xMidYMid meet">'
        f"<title>{escape(summary)}</title>"
        + "".join(grid)
        + f'<polygon class="band" points="{band}"/>'
        + f'<polyline class="line" points="{line}"/>'
        + whiskers
        + markers
        + dots
        + f'<text class="axis" x="{LEFT}" y="{HEIGHT - 8}">first</text>'
        + f'<text class="axis" x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">latest</text>'
        + "</svg>"
    )
    return mark_safe(svg)  # every interpolated text went through escape(); the rest are numbers


def progress_chart(
    series: Sequence[Sequence[float]],
    *,
    seat_names: Sequence[str],
    forfeit_steps: dict[int, int],
    label: str,
) -> SafeString:
    """Each seat's score (or progress) at every replay step, with forfeits marked.

    ``series[step][seat]``.  The viewer moves the ``.cursor`` line to the step on show and
    maps a click on the chart to a step (x runs from step 0 to the last step).
    """
    if len(series) < 2:
        return mark_safe("")
    steps = len(series) - 1
    lo = min(min(row) for row in series)
    hi = max(max(row) for row in series)
    if hi - lo < 1:
        hi = lo + 1
    xs = _scale(range(steps + 1), 0, steps, LEFT, WIDTH - RIGHT)
    lines = []
    for seat, name in enumerate(seat_names):
        ys = _scale([row[seat] for row in series], lo, hi, HEIGHT - BOTTOM, TOP)
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys, strict=True))
        lines.append(
            f'<polyline class="seat-line seat-line-{seat}" points="{points}">'
            f"<title>Seat {seat} ({escape(name)}): {series[-1][seat]:g} at the end</title>"
            "</polyline>"
        )
    grid = []
    for value in (lo, (lo + hi) / 2, hi):
        (y,) = _scale([value], lo, hi, HEIGHT - BOTTOM, TOP)
        grid.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="axis" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">'
            f"{value:.0f}</text>"
        )
    marks = []
    for seat, step in sorted(forfeit_steps.items()):
        x = xs[min(max(step, 0), steps)]
        marks.append(
            f'<line class="forfeit-mark" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" '
            f'y2="{HEIGHT - BOTTOM}"><title>Seat {seat} forfeited at step {step}</title></line>'
            f'<text class="forfeit-label" x="{x - 3:.1f}" y="{TOP + 10}" text-anchor="end">'
            f"seat {seat} forfeits</text>"
        )
    summary = f"{label} per seat over {steps} steps; at the end: " + ", ".join(
        f"seat {seat} {series[-1][seat]:g}" for seat in range(len(seat_names))
    )
    if forfeit_steps:
        summary += "; forfeits at " + ", ".join(
            f"step {step} (seat {seat})" for seat, step in sorted(forfeit_steps.items())
        )
    svg = (
        f'<svg class="chart progress-chart" id="progress-chart" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(summary)}" preserveAspectRatio="xMidYMid meet" '
        f'data-left="{LEFT}" data-right="{WIDTH - RIGHT}" data-width="{WIDTH}" '
        f'data-steps="{steps}">'
        f"<title>{escape(summary)}</title>"
        + "".join(grid)
        + "".join(lines)
        + "".join(marks)
        + f'<line class="cursor" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{HEIGHT - BOTTOM}"/>'
        + f'<text class="axis" x="{LEFT}" y="{HEIGHT - 8}">step 0</text>'
        + f'<text class="axis" x="{WIDTH - RIGHT}" y="{HEIGHT - 8}" text-anchor="end">'
        f"step {steps}</text>" + "</svg>"
    )
    return mark_safe(svg)  # names went through escape(); the rest are numbers
