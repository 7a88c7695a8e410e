#!/usr/bin/env python3
"""Summary and SVG chart of deploy/soak.sh's samples.csv (standard library only).

Usage: python3 soak_chart.py samples.csv out.svg [out.png]

Prints, per node and series, the mean (and minimum) of the first and last thirds of the run, the maximum, and
the least-squares slope over the last two thirds (MiB per 10 minutes): a leak shows as a steady positive
slope there. Writes one panel per series with both nodes' curves as SVG (standard library only) and, when
matplotlib is installed (Debian: python3-matplotlib), as PNG too.
"""
import csv
import sys
from collections import defaultdict

SERIES = [
    ("heap_used", "heap used (all pools)"),
    ("old_gen_used", "heap: G1 old gen used"),
    ("netty_direct", "Netty direct memory (pooled + unpooled)"),
    ("jdk_direct", "JDK direct buffers"),
    ("rss", "RSS"),
    ("heap_committed", "heap committed (part of RSS)"),
    ("rocksdb_block_cache", "RocksDB block cache, memtables included (part of RSS)"),
    ("nonheap_used", "JVM non-heap used: metaspace, code cache (part of RSS)"),
]
COLOURS = {"node-a": "#1f77b4", "node-b": "#d62728"}
MIB = 1024 * 1024


def load(path):
    data = defaultdict(lambda: defaultdict(list))  # node -> column -> [(t, value)]
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            t = float(row["t_s"])
            for key, _ in SERIES + [("live_data", ""), ("open_files", ""), ("threads", ""), ("archive_messages", ""), ("accepted", ""),
                                    ("rocksdb_memtables", "")]:
                value = row.get(key, "")
                if value not in ("", None):
                    data[row["node"]][key].append((t, float(value)))
    return data


def slope(points):
    n = len(points)
    if n < 2:
        return 0.0
    mt = sum(p[0] for p in points) / n
    mv = sum(p[1] for p in points) / n
    den = sum((p[0] - mt) ** 2 for p in points)
    return 0.0 if den == 0 else sum((p[0] - mt) * (p[1] - mv) for p in points) / den


def summary(data):
    lines = ["| node | series | first third: mean (min) MiB | last third: mean (min) MiB | max MiB | slope over the last 2/3, MiB per 10 min |",
             "|---|---|---|---|---|---|"]
    for node in sorted(data):
        for key, label in SERIES:
            pts = data[node].get(key, [])
            if not pts:
                continue
            end = pts[-1][0]
            first = [v for t, v in pts if t <= end / 3]
            last = [v for t, v in pts if t >= 2 * end / 3]
            tail = [(t, v) for t, v in pts if t >= end / 3]
            mean = lambda xs: sum(xs) / len(xs) / MIB if xs else float("nan")
            low = lambda xs: min(xs) / MIB if xs else float("nan")
            lines.append("| %s | %s | %.1f (%.1f) | %.1f (%.1f) | %.1f | %+.1f |" % (
                node, label, mean(first), low(first), mean(last), low(last), max(v for _, v in pts) / MIB,
                slope(tail) * 600 / MIB))
    for node in sorted(data):
        for key in ("open_files", "threads"):
            pts = data[node][key]
            if pts:
                lines.append("| %s | %s (count) | first %d | last %d | max %d | |" % (
                    node, key, pts[0][1], pts[-1][1], max(v for _, v in pts)))
    return "\n".join(lines)


def svg(data, out):
    width, panel_h, left, right, top = 900, 170, 80, 20, 30
    height = top + len(SERIES) * (panel_h + 40) + 20
    tmax = max((pts[-1][0] for node in data.values() for pts in node.values() if pts), default=1) or 1
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (width, height),
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="%d" y="18" font-size="13">wakurelay soak: memory of both nodes over time (MiB)</text>' % left]
    x = lambda t: left + (width - left - right) * t / tmax
    for i, (key, label) in enumerate(SERIES):
        y0 = top + i * (panel_h + 40) + 15
        vmax = max((v for node in data.values() for _, v in node.get(key, [])), default=1) / MIB
        vmax = max(vmax * 1.1, 1)
        y = lambda v: y0 + panel_h - panel_h * (v / MIB) / vmax
        parts.append('<text x="%d" y="%d" font-weight="bold">%s</text>' % (left, y0 - 4, label))
        parts.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>' % (left, y0, width - left - right, panel_h))
        for frac in (0, 0.5, 1):
            yy = y0 + panel_h - panel_h * frac
            parts.append('<text x="%d" y="%.1f" text-anchor="end">%.0f</text>' % (left - 5, yy + 4, vmax * frac))
            parts.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#eee"/>' % (left, width - right, yy, yy))
        for tick in range(0, int(tmax) + 1, 60):
            parts.append('<text x="%.1f" y="%d" text-anchor="middle">%ds</text>' % (x(tick), y0 + panel_h + 13, tick))
        for node, colour in COLOURS.items():
            pts = data.get(node, {}).get(key, [])
            if pts:
                path = " ".join("%.1f,%.1f" % (x(t), y(v)) for t, v in pts)
                parts.append('<polyline fill="none" stroke="%s" stroke-width="1.2" points="%s"/>' % (colour, path))
        for j, (node, colour) in enumerate(COLOURS.items()):
            parts.append('<text x="%d" y="%d" fill="%s">%s</text>' % (width - right - 120 + j * 60, y0 - 4, colour, node))
    parts.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(parts))


def png(data, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: PNG skipped")
        return False
    series = [(k, l) for k, l in SERIES if any(node.get(k) for node in data.values())]
    fig, axes = plt.subplots(len(series), 1, figsize=(8, 1.7 * len(series)), sharex=True)
    for ax, (key, label) in zip(axes, series):
        for node, colour in COLOURS.items():
            pts = data.get(node, {}).get(key, [])
            if pts:
                ax.plot([t for t, _ in pts], [v / MIB for _, v in pts], color=colour, linewidth=0.9, label=node)
        ax.set_title(label, fontsize=9, loc="left")
        ax.set_ylabel("MiB", fontsize=8)
        ax.set_ylim(bottom=0)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7, loc="lower right")
    axes[-1].set_xlabel("seconds since the load started", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    return True


def main():
    data = load(sys.argv[1])
    print(summary(data))
    if len(sys.argv) > 2:
        svg(data, sys.argv[2])
        print("chart: " + sys.argv[2])
    if len(sys.argv) > 3 and png(data, sys.argv[3]):
        print("chart: " + sys.argv[3])


if __name__ == "__main__":
    main()
