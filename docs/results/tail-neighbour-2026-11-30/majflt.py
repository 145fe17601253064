# Major page faults per process per second (sampler.py's samples), summed per loaded variant (the variant whose
# broker JVMs used most CPU that second) and per process role; with the DAMON pageout behind them.
import json, sys, collections
rows = [json.loads(l) for l in open(sys.argv[1])]
t0, t1 = float(sys.argv[2]), float(sys.argv[3])
agg = collections.defaultdict(collections.Counter); n = collections.Counter()
series = []
for a, b in zip(rows, rows[1:]):
    if not (t0 <= a['t'] and b['t'] <= t1): continue
    cpu = collections.Counter(); flt = collections.Counter()
    for pid, v in b['procs'].items():
        if pid not in a['procs'] or a['procs'][pid][0] != v[0] or len(v) < 3: continue
        name = v[0]
        if name.startswith('java:BrokerStartup') or name.startswith('java:NamesrvStartup'):
            role = name.split('/')[-1] + (' namesrv' if 'Namesrv' in name else ' broker JVMs')
        elif name.startswith('java:'): role = 'agents+coordinator'
        else: role = 'other'
        flt[role] += v[2] - a['procs'][pid][2]
        if 'broker JVMs' in role: cpu[role] += v[1] - a['procs'][pid][1]
    if not cpu: continue
    v, top = cpu.most_common(1)[0]
    if top < 5: continue
    agg[v].update(flt); n[v] += 1
    series.append((a['t'], v.split()[0], flt))
for v in sorted(agg):
    print(f"{v} loaded, {n[v]} s: major faults per second by process: " + ', '.join(f"{k} {x / n[v]:.1f}" for k, x in sorted(agg[v].items()) if x))
