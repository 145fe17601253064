# Per second of a CPU-1 `perf sched` recording: which master had the load (more run time), and how long kdamond.0
# ran on CPU 1 in that second; summed per loaded variant.
import subprocess, sys, re, collections
pids = {}
for line in open('/tmp/tn60/perf-pids.txt'):
    f = line.split()
    if len(f) == 2: pids[f[0]] = f[1].split('/')[-1]
tot = collections.defaultdict(lambda: [0.0, 0.0, 0, 0.0])
for path in sys.argv[1:]:
    out = subprocess.run(['perf', 'sched', 'timehist', '-i', path], capture_output=True, text=True).stdout.splitlines()
    bins = collections.defaultdict(collections.Counter)
    for l in out[3:]:
        m = re.match(r'\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\[(\d+)(?:/(\d+))?\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)', l)
        if not m: continue
        t, cpu, name, tid, pid, wait, delay, run = m.groups()
        k = 'kdamond' if name.startswith('kdamond') else pids.get(pid, 'other')
        bins[int(float(t))][k] += float(run)
    for sec, c in bins.items():
        masters = {v: c[v] for v in set(pids.values())}
        if not masters or max(masters.values()) < 20: continue   # no load on CPU 1 this second
        v = max(masters, key=masters.get)
        x = tot[v]; x[0] += c['kdamond']; x[1] += c[v]; x[2] += 1; x[3] = max(x[3], c['kdamond'])
for v, (kd, own, n, mx) in tot.items():
    print(f"{v:18s} {n:3d} s loaded: kdamond.0 on CPU 1 {kd / n:5.1f} ms/s (most in one second {mx:.1f}); the loaded master {own / n:6.1f} ms/s")
