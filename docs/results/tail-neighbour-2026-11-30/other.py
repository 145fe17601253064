import json,sys,statistics as st
for path in sys.argv[1:]:
    r=json.load(open(path))
    agg={}
    for w in r['windows']:
        if w['phase'] in ('measure','calibration') and w['inInterval']:
            key=(w['variant'],w['placement'],w['targetRateMsgPerS'])
            agg.setdefault(key,[]).append((w['otherCpuCores'] or 0, w['latencyMs']['p99']))
    print(path)
    for k in sorted(agg, key=lambda k:(k[2],k[1],k[0])):
        xs=agg[k]
        print(f"   {k[0]:18s} {k[1]:9s} {k[2]:6.0f} other median {st.median(x[0] for x in xs):.3f} p99 median {st.median(x[1] for x in xs):.2f} n={len(xs)}")
