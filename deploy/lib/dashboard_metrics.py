#!/usr/bin/env python3
"""Checks the Grafana dashboard against the metrics contract (docs/metrics.md).

Used by deploy/validate-compose.sh and deploy/netns-test.sh. Standard library only.

  dashboard_metrics.py check DASHBOARD.json METRICS.md DATASOURCE.yml
      The JSON parses; panel ids are unique; panels do not overlap; every query uses the provisioned data
      source; every metric name the queries use is documented in docs/metrics.md (with the suffixes its
      type allows: _bucket for histograms, _count/_sum/_max for timers and summaries) or is a standard
      JVM/process one (jvm_*, process_*, system_*, up). Exit 1 on a problem.
  dashboard_metrics.py names DASHBOARD.json [METRICS.md]
      The metric names the dashboard queries, one per line; with METRICS.md, each followed by a tab and what a node
      must run to serve it: "postgres", "rocksdb" or "rln" (the sections of docs/metrics.md served only then: see
      SECTION_CONDITIONS), "lazy" (a meter made on first use: see LAZY), or "-" (every node serves it).
      deploy/netns-test.sh and deploy/compose-test.sh check that the names their nodes must serve are scraped.
  dashboard_metrics.py rules DASHBOARD.json OUT.yml
      Every query as a Prometheus recording rule, so that `promtool check rules OUT.yml` parses the PromQL.

Names the node exports that docs/metrics.md does not list yet are reported as warnings (errors with
STRICT=1) when they are in PENDING_DOCS below; remove them from there once the contract lists them.
"""
import json
import os
import re
import sys

# Exported but not yet in docs/metrics.md: a warning, not an error (STRICT=1: error). Empty: all are documented.
PENDING_DOCS = set()
# The sections of docs/metrics.md whose metrics only some nodes serve, and what they need.
SECTION_CONDITIONS = {"Archive on RocksDB": "rocksdb", "Archive on PostgreSQL": "postgres",
                      "RLN: membership roots": "rln", "RLN: validation": "rln", "Relay validation": "rln"}
# Meters made on first use (by reason), which a clean run may not have made.
LAZY = {"waku_relay_messages_invalid_total", "waku_relay_peer_disconnects_total"}
STANDARD_PREFIXES = ("jvm_", "process_", "system_")
STANDARD_NAMES = {"up", "scrape_duration_seconds", "scrape_samples_scraped", "scrape_samples_post_metric_relabeling",
                  "scrape_series_added"}
KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or", "unless",
            "offset", "inf", "nan", "atan2"}
IDENT = re.compile(r"[A-Za-z_:][A-Za-z0-9_:]*")
GRAFANA_VARS = [("$__rate_interval", "1m"), ("$__interval", "1m"), ("$__range", "5m"), ("${__range}", "5m"),
                ("$node", ".*"), ("${node}", ".*")]


def panels_of(dashboard):
    for panel in dashboard.get("panels", []):
        yield panel
        for inner in panel.get("panels", []) or []:
            yield inner


def queries(dashboard):
    """(panel title, expr) for every target of every panel."""
    for panel in panels_of(dashboard):
        for target in panel.get("targets", []) or []:
            if target.get("expr"):
                yield panel.get("title", "?"), target["expr"]


def template_metrics(dashboard):
    out = set()
    for var in dashboard.get("templating", {}).get("list", []):
        q = var.get("query")
        text = q.get("query", "") if isinstance(q, dict) else (q or "")
        for m in re.finditer(r"label_values\(\s*([A-Za-z_:][A-Za-z0-9_:]*)\s*[{,)]", text + " " + var.get("definition", "")):
            out.add(m.group(1))
    return out


def substitute(expr):
    for var, value in GRAFANA_VARS:
        expr = expr.replace(var, value)
    return expr


def metric_names(expr):
    s = substitute(expr)
    s = re.sub(r'"(?:[^"\\]|\\.)*"', '""', s)          # string literals
    s = re.sub(r"`[^`]*`", '""', s)
    s = re.sub(r"\{[^}]*\}", " ", s)                    # label matchers
    s = re.sub(r"\[[^\]]*\]", " ", s)                   # ranges and subqueries
    s = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", s)
    names = set()
    for m in IDENT.finditer(s):
        name = m.group(0)
        rest = s[m.end():].lstrip()
        if rest.startswith("(") or name.lower() in KEYWORDS:
            continue
        if m.start() > 0 and (s[m.start() - 1].isdigit() or s[m.start() - 1] == "."):
            continue                                     # 1e3, 0.5 and similar
        names.add(name)
    return names


def documented(metrics_md, sections=None):
    """name -> type, from the tables of docs/metrics.md (first column `name`, second column type); with a dict as
    sections, also name -> the title of the section (## heading) that documents it."""
    out = {}
    section = ""
    with open(metrics_md, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                section = line[3:].strip()
            if not line.startswith("|"):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 2:
                continue
            m = re.fullmatch(r"`([a-z_:][a-z0-9_:]*)`", cells[0])
            if m:
                out[m.group(1)] = cells[1].lower()
                if sections is not None:
                    sections[m.group(1)] = section
    return out


def base_name(name, docs):
    """The documented name a queried one stands for (a histogram's _bucket, a timer's _count, ...)."""
    if name in docs:
        return name
    for base, kind in docs.items():
        if any(name == base + suffix for suffix in allowed_suffixes(kind)):
            return base
    return name


def condition(name, docs, sections):
    if name in LAZY:
        return "lazy"
    return SECTION_CONDITIONS.get(sections.get(base_name(name, docs), ""), "-")


def allowed_suffixes(kind):
    suffixes = set()
    if "histogram" in kind:
        suffixes |= {"_bucket", "_count", "_sum", "_max"}
    if "timer" in kind or "summary" in kind:
        suffixes |= {"_count", "_sum", "_max"}
    return suffixes


def classify(name, docs):
    """'ok', 'pending' or 'unknown'."""
    if name in docs or name in STANDARD_NAMES or name.startswith(STANDARD_PREFIXES):
        return "ok"
    for base, kind in docs.items():
        for suffix in allowed_suffixes(kind):
            if name == base + suffix:
                return "ok"
    if name in PENDING_DOCS:
        return "pending"
    return "unknown"


def all_names(dashboard):
    names = set(template_metrics(dashboard))
    for _, expr in queries(dashboard):
        names |= metric_names(expr)
    return names


def check(dashboard_path, metrics_md, datasource_yml):
    problems, warnings = [], []
    try:
        with open(dashboard_path, encoding="utf-8") as f:
            dashboard = json.load(f)
    except (OSError, ValueError) as e:
        print(f"FAIL {dashboard_path}: not valid JSON: {e}")
        return 1
    with open(datasource_yml, encoding="utf-8") as f:
        uids = set(re.findall(r"^\s*uid:\s*\"?([A-Za-z0-9_-]+)\"?\s*$", f.read(), re.M))
    if not uids:
        problems.append(f"{datasource_yml}: no datasource uid")

    ids, cells = {}, []
    for panel in panels_of(dashboard):
        pid = panel.get("id")
        if pid in ids:
            problems.append(f"panel id {pid} used by '{ids[pid]}' and '{panel.get('title')}'")
        ids[pid] = panel.get("title")
        g = panel.get("gridPos")
        if not g:
            problems.append(f"panel '{panel.get('title')}' has no gridPos")
            continue
        for other_title, o in cells:
            if g["x"] < o["x"] + o["w"] and o["x"] < g["x"] + g["w"] and g["y"] < o["y"] + o["h"] and o["y"] < g["y"] + g["h"]:
                problems.append(f"panels '{panel.get('title')}' and '{other_title}' overlap")
        cells.append((panel.get("title"), g))
        if g["x"] + g["w"] > 24:
            problems.append(f"panel '{panel.get('title')}' is wider than the grid")
        if panel.get("type") != "row":
            refs = [panel.get("datasource")] + [t.get("datasource") for t in panel.get("targets", [])]
            for ref in refs:
                if not isinstance(ref, dict) or ref.get("uid") not in uids:
                    problems.append(f"panel '{panel.get('title')}' uses datasource {ref!r}, provisioned: {sorted(uids)}")
            if not panel.get("targets"):
                problems.append(f"panel '{panel.get('title')}' has no queries")

    docs = documented(metrics_md)
    if not docs:
        problems.append(f"{metrics_md}: no metric names found in its tables")
    names = all_names(dashboard)
    for name in sorted(names):
        verdict = classify(name, docs)
        if verdict == "unknown":
            problems.append(f"metric '{name}' is neither in {metrics_md} nor a standard JVM/process metric")
        elif verdict == "pending":
            (problems if os.environ.get("STRICT") == "1" else warnings).append(
                f"metric '{name}' is exported by the node but not yet listed in {metrics_md}")
    for w in warnings:
        print(f"WARN {w}")
    for p in problems:
        print(f"FAIL {p}")
    n_queries = sum(1 for _ in queries(dashboard))
    print(f"dashboard: {len(ids)} panels, {n_queries} queries, {len(names)} metric names "
          f"({len(docs)} documented in {metrics_md})")
    return 1 if problems else 0


def rules(dashboard_path, out_path):
    with open(dashboard_path, encoding="utf-8") as f:
        dashboard = json.load(f)
    lines = ["groups:", "  - name: dashboard-queries", "    rules:"]
    for i, (title, expr) in enumerate(queries(dashboard)):
        lines.append(f"      - record: dashboard:query_{i}")
        lines.append(f"        expr: {json.dumps(substitute(expr))}")
        lines.append(f"        labels: {{panel: {json.dumps(title)}}}")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return 0


def main(argv):
    if len(argv) == 5 and argv[1] == "check":
        return check(argv[2], argv[3], argv[4])
    if len(argv) in (3, 4) and argv[1] == "names":
        with open(argv[2], encoding="utf-8") as f:
            names = sorted(all_names(json.load(f)))
        if len(argv) == 3:
            for name in names:
                print(name)
            return 0
        sections = {}
        docs = documented(argv[3], sections)
        for name in names:
            print(f"{name}\t{condition(name, docs, sections)}")
        return 0
    if len(argv) == 4 and argv[1] == "rules":
        return rules(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
