"""Regenerates spider2_lite's golden verdicts with NeMo Gym's own code (a checkout named by NEMO_GYM_DIR).

    NEMO_GYM_DIR=/path/to/Gym python3 regenerate.py

Writes tiny.sqlite (a hand-made database: numbers, text, NULLs, duplicates) and vectors.json: NeMo Gym's SQL
extraction of hand-made texts, compare_multi_result_sets on hand-made result pairs, and execute_sqlite +
compare_multi_result_sets of query pairs on tiny.sqlite. NeMo Gym's code is loaded from the checkout, not copied
(ray, which eval_utils imports for its remote runner, is stubbed: only the plain functions are called).
"""
import ast
import json
import os
import sqlite3
import sys
import types
from pathlib import Path

HERE = Path(__file__).parent
GYM = Path(os.environ["NEMO_GYM_DIR"])
SERVER = GYM / "resources_servers" / "spider2_lite"
sys.path.insert(0, str(GYM))
ray = types.ModuleType("ray")
ray.remote = lambda *a, **k: (lambda f: f)
sys.modules["ray"] = ray

from resources_servers.spider2_lite import eval_utils  # noqa: E402

tree = ast.parse((SERVER / "app.py").read_text())
keep = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) and getattr(n, "module", None) in (None, "typing", "re")]
keep += [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "extract_sql_from_response"]
ns: dict = {}
exec(compile(ast.Module(body=keep, type_ignores=[]), "app.py", "exec"), ns)
extract = ns["extract_sql_from_response"]


def enc(v):
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v) if v != v or v in (float("inf"), float("-inf")) else v}
    if isinstance(v, bytes):
        return {"bytes": v.hex()}
    raise TypeError(type(v))


def rows_enc(rows):
    return [[enc(v) for v in row] for row in rows]


texts = [
    "", "no sql here", "```sql\nSELECT 1\n```", "```SQL\n  select 2  \n```", "```sql\nSELECT 1\n```\n```sql\nSELECT 2;\n```",
    "```\nSELECT a FROM t\n```", "```python\nprint(1)\n```\n```\nWITH x AS (SELECT 1) SELECT * FROM x\n```", "```\nexplain\n```",
    "The answer is SELECT a FROM t; and then more; text", "Try select a from t", "select a from t;;;", "SELECTED nothing",
    "```\nselect\tx from y\n```", "```sql```", "```\nDROP TABLE t\n```",
]
extraction = [{"text": t, "extracted_sql": extract(t)} for t in texts]

pairs = [
    ([], [], None, True), ([(1,)], [], None, True), ([(1, "a"), (2, "b")], [("b", 2, 9), ("a", 1, 8)], None, True),
    ([(1, "a"), (2, "b")], [("b", 2), ("a", 1)], None, False), ([("1.005",)], [(1.0,)], None, True), ([("1.02",)], [(1,)], None, True),
    ([(None,)], [(0,)], None, True), ([("abc",)], [("ABC",)], None, True), ([(1, 2)], [(1, 3)], [0], True), ([(1, 2)], [(1, 3)], [1], True),
    ([(1, 2)], [(1, 3)], [5], True), ([(1, 2)], [(2, 1)], [[0], [1]], True), ([("x", "10")], [("x", 10.004)], None, True),
    ([("10", "9", "100")], [(9,), (10,), (100,)], None, True), ([("10",), ("9",), ("100",)], [(100,), (9,), (10,)], None, True),
    ([("10",), ("9",), ("100",)], [(100,), (9,), (10,)], None, False), ([(" 7 ",)], [(7,)], None, True), ([("1_000",)], [(1000,)], None, True),
    ([("nan",)], [(0,)], None, True), ([("inf",)], [(float("inf"),)], None, True), ([(b"a",)], [("a",)], None, True), ([(1e16,)], [(10**16,)], None, True),
    ([("b",), ("a",), (1,)], [(1,), ("a",), ("b",)], None, True), ([(1,)], [(1,), (1,)], None, True),
]
comparisons = []
for gold, pred, cols, ignore in pairs:
    gold_sets = [gold] if not (cols and all(isinstance(c, list) for c in cols)) else [gold, [tuple(reversed(r)) for r in gold]]
    comparisons.append({"gold_sets": [rows_enc(g) for g in gold_sets], "pred": rows_enc(pred), "condition_cols": cols, "ignore_order": ignore,
                        "match": eval_utils.compare_multi_result_sets(gold_sets, pred, multi_condition_cols=cols, ignore_order=ignore)})

db = HERE / "tiny.sqlite"
db.unlink(missing_ok=True)
with sqlite3.connect(db) as con:
    con.executescript("""
    CREATE TABLE player (player_id INTEGER, player_name TEXT, runs REAL, team TEXT);
    INSERT INTO player VALUES (1, 'SR Watson', 117.0, 'RR'), (2, 'V Kohli', 100.5, 'RCB'), (3, 'MS Dhoni', NULL, 'CSK'),
      (4, 'AB de Villiers', 99.999, 'RCB'), (5, 'V Kohli', 12, 'RCB');
    """)
con.close()

queries = [
    ("SELECT player_name FROM player WHERE runs >= 100", "SELECT player_name, runs FROM player WHERE runs >= 100 ORDER BY runs"),
    ("SELECT player_name FROM player WHERE runs >= 100", "SELECT player_name FROM player WHERE runs > 100"),
    ("SELECT sum(runs) FROM player", "SELECT total(runs) + 0.001 FROM player"),
    ("SELECT team, count(*) FROM player GROUP BY team", "SELECT count(*), team FROM player GROUP BY team ORDER BY 1"),
    ("SELECT runs FROM player ORDER BY player_id", "SELECT coalesce(runs, 0) FROM player ORDER BY player_id"),
    ("SELECT DISTINCT player_name FROM player", "SELECT player_name FROM player"),
    ("SELECT player_name FROM player WHERE 0", "SELECT player_name FROM player WHERE runs < 0"),
]
sample = []
for gold_sql, pred_sql in queries:
    for ignore in (True, False):
        gold = eval_utils.execute_sqlite(db, gold_sql)
        pred = eval_utils.execute_sqlite(db, pred_sql)
        sample.append({"gold_sql": gold_sql, "pred_sql": pred_sql, "ignore_order": ignore,
                       "match": eval_utils.compare_multi_result_sets([gold], pred, multi_condition_cols=[], ignore_order=ignore)})

vectors = {
    "origin": "labelled by NeMo Gym's resources_servers/spider2_lite (app.py extraction, eval_utils) at the checkout in NEMO_GYM_DIR",
    "extraction": extraction,
    "comparisons": comparisons,
    "tiny_db_verdicts": sample,
}
(HERE / "vectors.json").write_text(json.dumps(vectors, indent=1, ensure_ascii=False) + "\n")
print(f"wrote {db.name} ({db.stat().st_size} bytes) and vectors.json")
