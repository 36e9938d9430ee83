#!/usr/bin/env python3
"""Medians per benchmark line and side from alternate_benchmarks.sh output: ours / baseline = ratio."""
import re,sys,statistics
f=sys.argv[1]
data={}
side=None
for line in open(f):
    m=re.match(r'### (old|new) run',line)
    if m: side=m.group(1); continue
    m=re.match(r'(\S.*?)\s{2,}([\d.]+) ms\s+([\d.]+) ms\s+([\d.]+)x',line)
    if m and side:
        data.setdefault(m.group(1),{}).setdefault(side,[]).append((float(m.group(2)),float(m.group(3)),float(m.group(4))))
for k,v in data.items():
    out=[]
    for side in ['old','new']:
        if side in v:
            xs=v[side]
            out.append(f"{side}: {statistics.median(x[0] for x in xs):.3f} ms / {statistics.median(x[1] for x in xs):.3f} ms = {statistics.median(x[2] for x in xs):.2f}x (n={len(xs)}, ratios {min(x[2] for x in xs):.2f}-{max(x[2] for x in xs):.2f})")
    print(k[:60].ljust(60), " | ".join(out))
