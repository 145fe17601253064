import json,sys
for path in sys.argv[1:]:
    r=json.load(open(path))
    print(path)
    by={}
    for w in r['windows']:
        if w['phase'] in ('measure','calibration') and w['inInterval']:
            l=w.get('latencyMs') or {}
            by.setdefault(w['variant'],[]).append((l.get('p99'),w.get('gcPauseMs')))
    for v,xs in by.items():
        ps=sorted(x[0] for x in xs)
        print(f"  {v:20s} n={len(ps)} p99 per window median {ps[len(ps)//2]:.2f} min {ps[0]:.2f} max {ps[-1]:.2f}  >8ms: {sum(p>8 for p in ps)}  gc>0: {sum(1 for x in xs if x[1])}")
        print('   ', ' '.join(f'{x[0]:.1f}' for x in xs))
