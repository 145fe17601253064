# Usage: summary.py DIR: for every run folder in DIR (single-<off|freeze>-<k>/results.json), each run's ratio of the
# second variant to the first (broker CPU per message: the harness's estimator, geometric mean of the per-pair ratios
# with its 95% t interval, pairs with a window outside the interval left out), the pairs of each condition's runs
# pooled, and each variant's medians: broker us/msg, context switches per message, outside load. Prints summary.txt.
import json, math, os, sys, collections, statistics as st

T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228, 11: 2.201,
     12: 2.179, 13: 2.16, 14: 2.145, 15: 2.131, 16: 2.12, 20: 2.086, 25: 2.06, 30: 2.042, 40: 2.021, 60: 2.0}

def ci(logs):
    m = st.mean(logs)
    h = (T.get(len(logs) - 1) or T[min(T, key=lambda k: abs(k - len(logs) + 1))]) * st.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - h), math.exp(m + h)

def pairs(d, a, b):
    per = collections.defaultdict(dict)
    for w in d['windows']:
        if w['phase'] == 'measure' and w.get('inInterval', True):
            per[w['pair']][w['variant']] = w
    return [math.log(v[b]['brokerCpuUsPerMsg'] / v[a]['brokerCpuUsPerMsg']) for v in per.values() if a in v and b in v]

root = sys.argv[1]
groups = collections.defaultdict(list)
for name in sorted(os.listdir(root)):
    f = os.path.join(root, name, 'results.json')
    if os.path.isfile(f):
        groups[name.split('-')[1]].append((name, json.load(open(f))))
for mode in ('off', 'freeze'):
    runs = groups[mode]
    a, b = [v['name'] for v in runs[0][1]['variants']][:2]
    print(f"{b} / {a}, single broker, 1,500 msg/s pinned, "
          f"{'idle variant frozen (--freeze-idle)' if mode == 'freeze' else 'every variant up (the default)'}")
    pooled = []
    for name, d in runs:
        logs = pairs(d, a, b)
        pooled += logs
        r = ci(logs)
        line = f"  {name:17s} {r[0]:.3f} [{r[1]:.3f}, {r[2]:.3f}] over {len(logs)} pairs;"
        for v in (a, b):
            ws = [w for w in d['windows'] if w['phase'] == 'measure' and w['variant'] == v]
            line += (f"  {v}: {st.median(w['brokerCpuUsPerMsg'] for w in ws):.0f} us/msg, cs/msg invol "
                     f"{st.median(w['brokerThreads']['involuntarySwitchesPerMsg'] for w in ws):.2f} vol "
                     f"{st.median(w['brokerThreads']['voluntarySwitchesPerMsg'] for w in ws):.2f}, outside "
                     f"{st.median(w['otherCpuCores'] for w in ws):.2f} cores")
        print(line)
    r = ci(pooled)
    print(f"  {'pooled':17s} {r[0]:.3f} [{r[1]:.3f}, {r[2]:.3f}] over {len(pooled)} pairs")
