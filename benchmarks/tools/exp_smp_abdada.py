"""Experiment: time and nodes to a fixed depth, 1 thread vs Lazy SMP vs ABDADA."""
import os, statistics, sys, time
sys.path.insert(0, "/work/smp/benchmarks")
from bench_smp import searcher, probe_depth, OPTIONS
from patchsolve.bench import read_positions
from patchsolve.search import alphabeta

def to_depth(pos, depth, workers, abdada):
    s = searcher(); s.abdada = abdada
    t0 = time.perf_counter()
    done = s.run(pos._c, depth, 0, 0.0, 1, workers)
    assert done[-1][0] == depth
    return s.nodes, time.perf_counter() - t0, done[-1][1]

probe = int(sys.argv[1]) if len(sys.argv) > 1 else 300_000
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 1
with alphabeta.learned_evaluation(OPTIONS["learned"]):
    chosen = [(pos, probe_depth(pos, probe)) for ph, pos in read_positions() if ph != "endgame"]
    print("depths", [d for _, d in chosen], "load", os.getloadavg()[0], flush=True)
    res = {}
    for rep in range(reps):
        for name, w, ab in (("1", 1, False), ("lazy2", 2, False), ("abdada2", 2, True)):
            r = [to_depth(p, d, w, ab) for p, d in chosen]
            res.setdefault(name, []).append(r)
            print(rep, name, "nodes", sum(x[0] for x in r), "wall %.2f" % sum(x[1] for x in r),
                  "values", [x[2] for x in r], "load %.2f" % os.getloadavg()[0], flush=True)
    base = res["1"]
    for name, runs in res.items():
        wall = [statistics.median(run[i][1] for run in runs) for i in range(len(chosen))]
        b = [statistics.median(run[i][1] for run in base) for i in range(len(chosen))]
        nodes = [statistics.median(run[i][0] for run in runs) for i in range(len(chosen))]
        bn = [statistics.median(run[i][0] for run in base) for i in range(len(chosen))]
        print(f"{name}: wall speed-up (geo) {statistics.geometric_mean(x/y for x,y in zip(b,wall)):.2f}, "
              f"nodes vs 1 (geo) {statistics.geometric_mean(x/y for x,y in zip(nodes,bn)):.2f}")
