"""report.html: the batch at a glance for staff, with inline SVG plots (no dependencies).

Plots: the score histogram, the pass rate of every test and of every part, the
grading time of every submission. Tests that nobody passes, or that failed with
a harness error for anyone, are flagged at the top: those are the ones to look
at before publishing grades.
"""

from __future__ import annotations

import html
import statistics
from collections import Counter
from pathlib import Path
from typing import Iterable

from grader.harness.parts import PARTS
from grader.rubric import Rubric
from grader.scoring import PASSED, PENDING, SubmissionResult

BAR = "#4a7bd0"
WARN = "#d0594a"


def _svg_bars(labels: list[str], values: list[float], *, max_value: float, unit: str = "",
              width: int = 720, bar_height: int = 16, warn: set[int] = frozenset()) -> str:
    label_width = min(360, max([len(x) for x in labels] + [4]) * 7 + 10)
    plot = width - label_width - 70
    height = bar_height * len(values) + 10
    rows = []
    for i, (label, value) in enumerate(zip(labels, values)):
        y = 5 + i * bar_height
        length = 0 if max_value <= 0 else plot * value / max_value
        colour = WARN if i in warn else BAR
        rows.append(
            f'<text x="{label_width - 6}" y="{y + bar_height - 5}" text-anchor="end">{html.escape(label)}</text>'
            f'<rect x="{label_width}" y="{y + 2}" width="{length:.1f}" height="{bar_height - 4}" fill="{colour}"/>'
            f'<text x="{label_width + length + 4:.1f}" y="{y + bar_height - 5}">{value:.3g}{unit}</text>'
        )
    return (f'<svg width="{width}" height="{height}" font-size="11" font-family="sans-serif">'
            + "".join(rows) + "</svg>")


def _svg_histogram(scores: list[float], top: float, bins: int = 10, width: int = 520, height: int = 180) -> str:
    counts = Counter(min(int(s / top * bins), bins - 1) if top > 0 else 0 for s in scores)
    most = max(counts.values(), default=1)
    bar_w = (width - 40) / bins
    parts = []
    for b in range(bins):
        h = (height - 40) * counts.get(b, 0) / most
        x = 30 + b * bar_w
        parts.append(f'<rect x="{x:.1f}" y="{height - 25 - h:.1f}" width="{bar_w - 2:.1f}" height="{h:.1f}" fill="{BAR}"/>')
        if counts.get(b):
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{height - 28 - h:.1f}" text-anchor="middle">{counts[b]}</text>')
        parts.append(f'<text x="{x:.1f}" y="{height - 10}">{top * b / bins:g}</text>')
    parts.append(f'<text x="{width - 20}" y="{height - 10}">{top:g}</text>')
    return f'<svg width="{width}" height="{height}" font-size="11" font-family="sans-serif">{"".join(parts)}</svg>'


def render(results: Iterable[SubmissionResult], rubric: Rubric, *, title: str = "Grading report",
           notes: list[str] = ()) -> str:
    results = list(results)
    n = len(results)
    scores = [r.score for r in results]
    top = max([r.max_score for r in results] + [1.0])
    # pass rate per test, harness errors per test
    rates, harness, labels = [], set(), []
    for i, item in enumerate(rubric.items):
        outcomes = [t for r in results for t in r.tests if t.test == item.test and t.status != PENDING]
        rates.append(100.0 * sum(t.status == PASSED for t in outcomes) / len(outcomes) if outcomes else 0.0)
        if any(t.kind == "harness error" for t in outcomes):
            harness.add(i)
        labels.append(f"P{item.part} {item.name}" + (" (hidden)" if item.hidden else ""))
    never = {i for i, rate in enumerate(rates) if rate == 0.0 and n > 0}
    part_rates = []
    for number in PARTS:
        got = sum(r.part_scores().get(number, (0, 0))[0] for r in results)
        most = sum(r.part_scores().get(number, (0, 0))[1] for r in results)
        part_rates.append(100.0 * got / most if most else 0.0)

    flags = []
    for i in sorted(harness):
        flags.append(f"<li><b>{html.escape(labels[i])}</b>: a harness error for at least one submission "
                     "(a bug in the test, not in the students' code?)</li>")
    for i in sorted(never - harness):
        flags.append(f"<li><b>{html.escape(labels[i])}</b>: passed by no submission</li>")
    errors = [r for r in results if r.error]

    rows = []
    for r in sorted(results, key=lambda r: r.student):
        ps = r.part_scores()
        cells = "".join(f"<td>{ps.get(k, (0, 0))[0]:g}</td>" for k in PARTS)
        rows.append(f"<tr><td>{html.escape(r.student)}</td><td><b>{r.score:g}</b>/{r.max_score:g}</td>{cells}"
                    f"<td>{r.seconds:.1f}s</td><td>{html.escape(r.error.splitlines()[0]) if r.error else ''}</td></tr>")
    mean = statistics.fmean(scores) if scores else 0.0
    median = statistics.median(scores) if scores else 0.0
    body = f"""
<h1>{html.escape(title)}</h1>
<p>{n} submissions · mean {mean:.1f} · median {median:.1f} · out of {top:g}
 · {len(errors)} could not be graded fully</p>
{''.join(f'<p class="note">{html.escape(x)}</p>' for x in notes)}
<h2>Look at these first</h2>
<ul>{''.join(flags) or '<li>nothing unusual: every test was passed by someone, no harness errors</li>'}</ul>
<h2>Scores</h2>{_svg_histogram(scores, top)}
<h2>Pass rate per part (% of points)</h2>
{_svg_bars([f"Part {k} · {PARTS[k].title}" for k in PARTS], part_rates, max_value=100, unit="%")}
<h2>Pass rate per test (%)</h2>
{_svg_bars(labels, rates, max_value=100, unit="%", warn=never | harness)}
<h2>Grading time per submission (s)</h2>
{_svg_bars([r.student for r in results], [r.seconds for r in results], max_value=max([r.seconds for r in results] + [1]), unit="s")}
<h2>Submissions</h2>
<table><tr><th>student</th><th>total</th>{''.join(f'<th>P{k}</th>' for k in PARTS)}<th>time</th><th>problem</th></tr>
{''.join(rows)}</table>
"""
    style = ("body{font-family:sans-serif;margin:2em;max-width:1000px}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px}h2{margin-top:1.5em}"
             ".note{color:#555;font-size:12px}")
    return f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>" \
           f"<style>{style}</style></head><body>{body}</body></html>"


def write(results: Iterable[SubmissionResult], rubric: Rubric, path: Path, **kwargs) -> None:
    Path(path).write_text(render(results, rubric, **kwargs))
