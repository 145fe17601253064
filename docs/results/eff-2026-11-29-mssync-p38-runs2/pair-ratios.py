# Usage: pair-ratios.py VARIANT_A VARIANT_B results.json [results.json ...]: per cell, the geometric mean of B/A over the
# pairs of windows (pair, master and slave CPU per message; 95% t interval), and across runs when given several.
import json,sys,math,collections
from statistics import mean, stdev
# t 0.975 quantiles
T={1:12.706,2:4.303,3:3.182,4:2.776,5:2.571,6:2.447,7:2.365,8:2.306,9:2.262,10:2.228,11:2.201,12:2.179,13:2.16,14:2.145,15:2.131,16:2.12,17:2.11,18:2.101,19:2.093,20:2.086,25:2.06,29:2.045}
def t(df): return T.get(df) or T[min(T, key=lambda k: abs(k-df))]
A,B=sys.argv[1],sys.argv[2]; files=sys.argv[3:]
cells=collections.defaultdict(list); runs=collections.defaultdict(list)
for f in files:
    d=json.load(open(f)); per=collections.defaultdict(dict)
    for w in d['windows']:
        if w.get('phase')!='measure': continue
        key=(w['targetRateMsgPerS'],w['placement'])
        per[(key,w['pair'])][w['variant']]=w
    rr=collections.defaultdict(list)
    for (key,p),v in per.items():
        if A in v and B in v:
            r=v[B]['pairCpuUsPerMsg']/v[A]['pairCpuUsPerMsg']
            m=v[B]['brokerCpuUsPerMsg']/v[A]['brokerCpuUsPerMsg']
            s=v[B]['slaveCpuUsPerMsg']/v[A]['slaveCpuUsPerMsg']
            cells[key].append((math.log(r),math.log(m),math.log(s)))
            rr[key].append(math.log(r))
    for key,l in rr.items(): runs[key].append(mean(l))
def ci(xs):
    m=mean(xs); 
    if len(xs)<2: return math.exp(m),float('nan'),float('nan')
    h=t(len(xs)-1)*stdev(xs)/math.sqrt(len(xs)); return math.exp(m),math.exp(m-h),math.exp(m+h)
print(f"{B} / {A}, pair CPU per message (geometric mean of per-pair ratios, 95% t interval); master; slave")
for key in sorted(cells):
    l=cells[key]
    p=ci([x[0] for x in l]); m=ci([x[1] for x in l]); s=ci([x[2] for x in l])
    line=f"{int(key[0]):>6} msg/s {key[1]:>8}: pairs {len(l):>2}  pair {p[0]:.3f} [{p[1]:.3f}, {p[2]:.3f}]  master {m[0]:.3f} [{m[1]:.3f}, {m[2]:.3f}]  slave {s[0]:.3f} [{s[1]:.3f}, {s[2]:.3f}]"
    if len(runs[key])>1:
        rc=ci(runs[key]); line+=f"  across {len(runs[key])} runs {rc[0]:.3f} [{rc[1]:.3f}, {rc[2]:.3f}]"
    print(line)
