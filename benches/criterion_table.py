#!/usr/bin/env python3
"""Print criterion's medians (target/criterion/<group>/<bench>/<n>/new/estimates.json) as a
markdown table: one row per benchmark, one column per rule count."""
import json, os, sys
root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
rows = {}
for dirpath, _, files in os.walk(root):
    if "estimates.json" in files and dirpath.endswith(os.sep + "new"):
        parts = dirpath[len(root):].strip(os.sep).split(os.sep)
        if len(parts) != 4:
            continue
        group, bench, n, _ = parts
        med = json.load(open(os.path.join(dirpath, "estimates.json")))["median"]["point_estimate"]
        rows.setdefault(f"{group}/{bench}", {})[int(n)] = med
def fmt(ns):
    if ns >= 1e6: return f"{ns/1e6:.2f} ms"
    if ns >= 1e3: return f"{ns/1e3:.2f} µs"
    return f"{ns:.0f} ns"
sizes = sorted({n for r in rows.values() for n in r})
print("| benchmark (median) | " + " | ".join(f"{n:,} rules" for n in sizes) + " |")
print("|---|" + "---|" * len(sizes))
for name in sorted(rows):
    print(f"| {name} | " + " | ".join(fmt(rows[name][n]) if n in rows[name] else "–" for n in sizes) + " |")
