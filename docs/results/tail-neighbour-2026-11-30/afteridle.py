# Each measured window's p99, split by whether the window's broker had the load just before (it "goes on") or comes
# back to it after the other variant's windows ("after idle"), per variant and placement: medians and counts > 8 ms.
import json, sys, statistics as st
for path in sys.argv[1:]:
    r = json.load(open(path))
    ws = r['windows']
    groups = {}
    for prev, w in zip(ws, ws[1:]):
        if w['phase'] not in ('measure', 'calibration') or not w['inInterval']:
            continue
        kind = 'goes on' if prev['variant'] == w['variant'] else 'after idle'
        groups.setdefault((w['placement'], w['variant'], kind), []).append(w['latencyMs']['p99'])
    print(path)
    for k in sorted(groups):
        xs = groups[k]
        print(f"   {k[0]:8s} {k[1]:18s} {k[2]:10s} n={len(xs):2d} p99 median {st.median(xs):6.2f}  over 8 ms: {sum(x > 8 for x in xs):2d}")
