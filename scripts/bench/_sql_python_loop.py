"""The Python peer of scripts/bench/sql.ts: what NeMo Gym's bird_sql does per verification (connect, execute gold
and predicted SQL, fetchall, compare as sets), in a plain loop with the same SQLite file. Prints one JSON line."""
import json
import sqlite3
import sys
import time

db, pairs_file, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
pairs = json.load(open(pairs_file))


def run(sql):
    try:
        with sqlite3.connect(db) as conn:
            conn.text_factory = lambda b: b.decode(errors="ignore")
            return conn.execute(sql).fetchall()
    except Exception:
        return None


start = time.perf_counter()
matches = 0
for i in range(n):
    gold_sql, pred_sql = pairs[i % len(pairs)]
    gold = run(gold_sql)
    pred = run(pred_sql) if gold is not None else None
    matches += gold is not None and pred is not None and set(gold) == set(pred)
print(json.dumps({"verifications": n, "seconds": time.perf_counter() - start, "matches": matches}))
