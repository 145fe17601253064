# Per loaded second (the variant whose brokers used most CPU, only seconds whose measured master+slave used
# between lo and hi ticks, i.e. rate-limited windows), softirq time per CPU and softirq counts by type per second.
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1])]
t0 = float(sys.argv[2]); t1 = float(sys.argv[3])
HZ = 100
agg = collections.defaultdict(collections.Counter); n = collections.Counter()
for a, b in zip(rows, rows[1:]):
    if not (t0 <= a['t'] and b['t'] <= t1): continue
    per = collections.Counter(); allp = 0
    for pid, (name, ticks) in b['procs'].items():
        if pid in a['procs'] and a['procs'][pid][0] == name:
            d = ticks - a['procs'][pid][1]; allp += d
            if name.startswith('java:BrokerStartup'): per[name.split('/')[-1]] += d
    if not per: continue
    v, top = per.most_common(1)[0]
    if top < 5 or top > 60: continue
    c = collections.Counter()
    for cpu in ('cpu0', 'cpu1', 'cpu'):
        d = [y - x for x, y in zip(a['cpus'][cpu], b['cpus'][cpu])]
        c[cpu + ' busy'] += sum(d) - d[3] - d[4]; c[cpu + ' nonidle(wall-idle)'] += (b['t']-a['t'])*HZ*(2 if cpu=='cpu' else 1) - d[3] - d[4]; c[cpu + ' softirq'] += d[6]; c[cpu+' sys'] += d[2]
    c['procs'] += allp; c['unexplained'] += c['cpu busy'] - allp; c['outside procs (wall-idle-procs)'] += c['cpu nonidle(wall-idle)'] - allp; c['measured pair'] += top
    for k in b.get('softirqs', {}):
        for i, (x, y) in enumerate(zip(a['softirqs'][k], b['softirqs'][k])):
            c[f'n {k} cpu{i}'] += (y - x) * HZ   # scaled so /HZ gives per second
    agg[v].update(c); n[v] += b['t'] - a['t']
for v in sorted(agg):
    print(f"{v}: {n[v]:.0f} s")
    for k, x in sorted(agg[v].items()):
        val = x / n[v] / HZ
        if abs(val) > 0.0005: print(f"   {k:22s} {val:10.3f}" + ('' if k.startswith('n ') else ' cores'))
