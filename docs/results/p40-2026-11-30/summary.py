# Usage: summary.py DIR: for every run folder in DIR (<question>-<off|freeze>-<k>/results.json), each run's ratio of
# the second variant to the first (pair CPU per message, the harness's geometric mean over pairs with its 95% t
# interval), the pairs of all runs of one condition pooled, and each variant's median context switches per message
# (master's involuntary and voluntary, slave's involuntary). Prints the table summary.txt holds.
import json, math, os, sys, collections, statistics as st

T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201,
     12: 2.179, 13: 2.16, 14: 2.145, 15: 2.131, 16: 2.12, 20: 2.086, 25: 2.06, 30: 2.042, 40: 2.021, 60: 2.0}

def t95(df):
    return T.get(df) or T[min(T, key=lambda k: abs(k - df))]

def ci(logs):
    m = st.mean(logs)
    h = t95(len(logs) - 1) * st.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - h), math.exp(m + h)

def pairs(d, a, b):
    per = collections.defaultdict(dict)
    for w in d['windows']:
        if w['phase'] == 'measure' and w.get('note') is None:
            per[w['pair']][w['variant']] = w
    return [math.log(v[b]['pairCpuUsPerMsg'] / v[a]['pairCpuUsPerMsg']) for v in per.values() if a in v and b in v]

def med(ws, f):
    return st.median(f(w) for w in ws)

root = sys.argv[1]
groups = collections.defaultdict(list)
for name in sorted(os.listdir(root)):
    f = os.path.join(root, name, 'results.json')
    if os.path.isfile(f):
        question, mode = name.split('-')[0], name.split('-')[1]
        rest = name.split('-', 2)[2]
        groups[(question, mode, 'unpinned' if 'unpinned' in rest else 'pinned')].append((name, json.load(open(f))))
for (question, mode, placement), runs in sorted(groups.items()):
    a, b = [v['name'] for v in runs[0][1]['variants']][:2]
    print(f"{question}: {b} / {a}, 400 msg/s {placement}, {'idle variants frozen (--freeze-idle)' if mode == 'freeze' else 'every variant up (the default)'}")
    pooled = []
    for name, d in runs:
        logs = pairs(d, a, b)
        pooled += logs
        r = ci(logs)
        line = f"  {name:24s} {r[0]:.3f} [{r[1]:.3f}, {r[2]:.3f}] over {len(logs)} pairs;"
        for v in (a, b):
            ws = [w for w in d['windows'] if w['phase'] == 'measure' and w['variant'] == v]
            line += (f"  {v}: pair {med(ws, lambda w: w['pairCpuUsPerMsg']):.0f} us/msg, master cs/msg invol "
                     f"{med(ws, lambda w: w['brokerThreads']['involuntarySwitchesPerMsg']):.2f} vol "
                     f"{med(ws, lambda w: w['brokerThreads']['voluntarySwitchesPerMsg']):.2f}, slave invol "
                     f"{med(ws, lambda w: w['slaveThreads']['involuntarySwitchesPerMsg']):.2f}")
        if d.get('freezeIdle'):
            line += f"  (longest freeze {d['freezeIdle']['longestFrozenSeconds']:.1f} s)"
        print(line)
    if len(runs) > 1:
        r = ci(pooled)
        print(f"  {'pairs of the runs pooled':24s} {r[0]:.3f} [{r[1]:.3f}, {r[2]:.3f}] over {len(pooled)} pairs")
