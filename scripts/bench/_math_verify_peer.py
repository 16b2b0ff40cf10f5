"""The peer of scripts/bench/math.ts: math-verify 0.8.0 on the same pairs, called as NeMo Gym's math_with_judge
calls it but in-process (no forked child per pair, so the library alone is timed). Prints one JSON line."""
import contextlib, io, json, logging, sys, time

from math_verify import grader
from math_verify.errors import TimeoutException
from math_verify.metric import math_metric
from math_verify.parser import ExprExtractionConfig, LatexExtractionConfig

logging.getLogger("math_verify").setLevel(logging.CRITICAL)
verifier = math_metric(gold_extraction_target=(LatexExtractionConfig(),), pred_extraction_target=(ExprExtractionConfig(), LatexExtractionConfig()))


def strip(s):
    s = s.strip()
    if s.startswith("\\(") and s.endswith("\\)"):
        s = s[2:-2].strip()
    if s.startswith("$") and s.endswith("$") and len(s) > 1:
        s = s[1:-1].strip()
    return s


def run(expected, generated):
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            score, extracted = verifier(["\\boxed{" + strip(expected) + "}"], [generated])
            if extracted is not None:
                golds, preds = extracted
                next((p for p in preds if any(grader.verify(g, p) for g in golds)), None)
        return float(score)
    except (Exception, TimeoutException):
        return 0.0


rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
limit = int(sys.argv[2]) if len(sys.argv) > 2 else len(rows)
rows = rows[:limit]
run("1", "1")  # warm-up: the ANTLR tables
times = []
start = time.perf_counter()
for r in rows:
    t = time.perf_counter()
    run(r["expected_answer"], r["response_text"])
    times.append((time.perf_counter() - t) * 1000)
total = time.perf_counter() - start
times.sort()
print(json.dumps({"pairs": len(rows), "seconds": total, "p50": times[len(times) // 2], "p99": times[int(len(times) * 0.99)], "max": times[-1]}))
