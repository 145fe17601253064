# From `perf sched timehist` of CPU 1: (1) run segments of 3 ms or more, by process and thread name; (2) for every
# wake-up delay of 3 ms or more of a broker thread, what ran on CPU 1 during it (top 3 by time).
import subprocess, sys, re, collections
pids = {}
for line in open('/tmp/tn60/perf-pids.txt'):
    f = line.split()
    if len(f) >= 2: pids[f[0]] = f[1].split('/')[-1] + ('(slave)' if len(f) > 2 and 'slave' in f[2] else '')
def who(pid, name):
    return pids.get(pid, name if pid is None else f'{name}[{pid}]')
for path in sys.argv[1:]:
    out = subprocess.run(['perf', 'sched', 'timehist', '-i', path], capture_output=True, text=True).stdout.splitlines()
    segs = []
    for l in out[3:]:
        m = re.match(r'\s*([\d.]+)\s+\[(\d+)\]\s+(.+?)\[(\d+)(?:/(\d+))?\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)', l)
        if not m: continue
        t, cpu, name, tid, pid, wait, delay, run = m.groups()
        t = float(t); run = float(run); delay = float(delay)
        segs.append((t - run / 1000, t, name.strip(), pid, delay))
    print(f'== {path}: {len(segs)} switches over {segs[-1][1] - segs[0][0]:.1f} s')
    longs = collections.Counter(); longmax = {}
    for s0, s1, name, pid, delay in segs:
        d = (s1 - s0) * 1000
        if d >= 3:
            k = (who(pid, 'kernel/other') if pid else name.split('/')[0], name)
            longs[k] += 1; longmax[k] = max(longmax.get(k, 0), d)
    print('  run segments >= 3 ms (process, thread): count, longest ms')
    for k, n in longs.most_common(15): print(f'    {k[0]:28s} {k[1]:22s} {n:4d} {longmax[k]:7.1f}')
    print('  broker threads woken but waiting >= 3 ms for CPU 1, and who ran meanwhile')
    delays = collections.Counter()
    for s0, s1, name, pid, delay in segs:
        if pid in pids and delay >= 3:
            w0, w1 = s0 - delay / 1000, s0
            ran = collections.Counter()
            for a0, a1, n2, p2, _ in segs:
                ov = min(a1, w1) - max(a0, w0)
                if ov > 0: ran[(who(p2, n2.split('/')[0]) if p2 else n2.split('/')[0], n2)] += ov * 1000
            top = ', '.join(f'{p}:{n} {ms:.1f}' for (p, n), ms in ran.most_common(3))
            delays[(pids[pid], name)] += 1
            if delay >= 8: print(f'    {s0:.3f} {pids[pid]:20s} {name:18s} waited {delay:6.1f} ms; ran: {top}')
    print('  counts of >= 3 ms waits by (broker, thread):', dict(delays.most_common(12)))
