"""The most common right answer of every answer task over worlds 0..N-1 (oracle in text mode): prints
"<most common count> <distinct answers> <task> <answer>" per task. Usage: python scripts/answer_spread.py [PREFIXES] [N]."""
import collections, json, sys, time
import gymnasium as gym
import mobilegym
from mobilegym.judge import default_registry
from mobilegym.oracle import plans_for, run_plan
REG = default_registry()
tasks = sorted(t for t, ref in REG.refs.items()
               if ref.metadata.get("objective") in ("query", "hybrid") and not ref.metadata.get("infeasible"))
if len(sys.argv) > 1:
    tasks = [t for t in tasks if any(t.startswith(p) for p in sys.argv[1].split(","))]
seeds = range(int(sys.argv[2]) if len(sys.argv) > 2 else 20)
env = gym.make("MobileGym-v0", task=tasks, eval_mode="text", obs_parts=("instruction",))
t0 = time.time()
out = {}
for t in tasks:
    oracle = next(p for p in plans_for(t) if p.expect_success)
    c = collections.Counter()
    for s in seeds:
        r, info, d = run_plan(env, t, oracle, s)
        c[json.dumps(d.answers, ensure_ascii=False, sort_keys=True)] += 1
    a, n = c.most_common(1)[0]
    out[t] = (n, a, len(c))
    print(f"{n:2d} {len(c):2d} {t} {a[:60]}", flush=True)
print("time", time.time() - t0, file=sys.stderr)
