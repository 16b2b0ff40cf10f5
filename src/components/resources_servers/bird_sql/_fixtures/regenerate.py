"""Regenerates bird_sql's golden verdicts with NeMo Gym's own code (a checkout named by NEMO_GYM_DIR).

    NEMO_GYM_DIR=/path/to/Gym python3 regenerate.py

Writes sample.sqlite (the california_schools sample that example.jsonl's sql_context dumps: its schema and the
rows shown to the model, not the full BIRD database) and vectors.json: NeMo Gym's extraction of hand-made texts
and of the published rollouts, its result-set comparison of hand-made pairs, and execute_and_compare of every
published rollout on sample.sqlite. Nothing of NeMo Gym's code is copied: it is loaded from the checkout.
"""
import ast
import asyncio
import json
import os
import sqlite3
import sys
from pathlib import Path

HERE = Path(__file__).parent
GYM = Path(os.environ["NEMO_GYM_DIR"])
SERVER = GYM / "resources_servers" / "bird_sql"
sys.path.insert(0, str(GYM))

from resources_servers.bird_sql import eval_utils  # noqa: E402  (stdlib only)

# app.py imports nemo_gym (a server framework): take only its module-level extraction definitions.
tree = ast.parse((SERVER / "app.py").read_text())
keep = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) and getattr(n, "module", None) in (None, "typing", "re")]
keep += [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("has_sql_codeblock", "extract_sql_from_response")]
keep += [n for n in tree.body if isinstance(n, ast.Assign) and any(getattr(t, "id", "") == "_NO_ANSWER_FILLER" for t in n.targets)]
ns: dict = {}
exec(compile(ast.Module(body=keep, type_ignores=[]), "app.py", "exec"), ns)


def enc(v):
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bool):
        raise TypeError(v)
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v) if v != v or v in (float("inf"), float("-inf")) else v}
    if isinstance(v, bytes):
        return {"bytes": v.hex()}
    raise TypeError(type(v))


def dec(v):
    if isinstance(v, dict):
        (kind, x), = v.items()
        return int(x) if kind == "int" else float(x) if kind == "float" else bytes.fromhex(x)
    return v


def rows_enc(rows):
    return [[enc(v) for v in row] for row in rows]


examples = [json.loads(l) for l in (SERVER / "data" / "example.jsonl").read_text().splitlines() if l.strip()]
rollouts = [json.loads(l) for l in (SERVER / "data" / "example_rollouts.jsonl").read_text().splitlines() if l.strip()]

db = HERE / "sample.sqlite"
db.unlink(missing_ok=True)
with sqlite3.connect(db) as con:
    # The dump keeps 10 INSERTs per table and marks the cut with a "..." line: drop those lines.
    con.executescript("\n".join(l for l in examples[0]["sql_context"].split("\n") if l != "..."))
con.close()


def prompt_key(params):
    return json.dumps([[m.get("role"), m.get("content")] for m in params["input"]])


by_prompt = {prompt_key(e["responses_create_params"]): e for e in examples}

texts = [
    "", "SELECT * FROM t;", "```sql\nSELECT * FROM t\n```", "```sql\nSELECT 1\n```\nthen\n```sql\nSELECT 2\n```",
    "```sql\nSELECT 1 /* c */ FROM t\n```", "```sql\nSELECT 1 -- note\nFROM t\n```", "```sql\n**Answer** SELECT 1 FROM t\n```",
    "```sql\n **Answer** SELECT 1 FROM t\n```", "```sql\n12345\n```", "```SQL\nSELECT 1\n```", "```sql SELECT\u00a0a\u2003FROM\tt ```",
    "```sql\nSELECT 1 -- trailing\n```", "```sql\n/* only */\n```", "```sql\nSELECT '**' || x || '**' FROM t\n```",
]


def output_text(response):
    return "".join(p.get("text", "") for item in response["output"] if item.get("type") == "message" for p in item.get("content", []) if p.get("type") == "output_text")


texts += [output_text(r["response"]) for r in rollouts]
extraction = [{"text": t, "extracted_sql": ns["extract_sql_from_response"](t), "had_codeblock": ns["has_sql_codeblock"](t)} for t in texts]

pairs = [
    ([], []), ([(1,), (2,)], [(2,), (1,)]), ([(1,), (1,), (2,)], [(1,), (2,)]), ([(1,)], [(2,)]), ([(1,)], [(1.0,)]),
    ([("1",)], [(1,)]), ([(None,)], [(None,)]), ([(b"a",)], [("a",)]), ([(b"a",)], [(b"a",)]), ([(0.1 + 0.2,)], [(0.3,)]),
    ([(2**53 + 1,)], [(float(2**53),)]), ([(1, "a")], [("a", 1)]), ([(-0.0,)], [(0,)]), ([(float("inf"),)], [(float("inf"),)]),
    ([(1,), (2,)], [(1,)]), ([], [(1,)]),
]
comparisons = [{"gold": rows_enc(g), "pred": rows_enc(p), "match": eval_utils.result_sets_match(g, p)} for g, p in pairs]


async def verdicts():
    sem = asyncio.Semaphore(4)
    out = []
    for r in rollouts:
        task = by_prompt[prompt_key(r["responses_create_params"])]
        text = output_text(r["response"])
        sql = ns["extract_sql_from_response"](text)
        match, gold, pred, err = await eval_utils.execute_and_compare(db, task["gt_sql"], sql, sem, 30.0)
        out.append({"id": task["id"], "extracted_sql": sql, "match": match, "error": err, "gold_rows": None if gold is None else len(gold), "pred_rows": None if pred is None else len(pred), "published_reward": r["reward"]})
    return out


vectors = {
    "origin": "labelled by NeMo Gym's resources_servers/bird_sql (app.py extraction, eval_utils) at the checkout in NEMO_GYM_DIR",
    "extraction": extraction,
    "comparisons": comparisons,
    "sample_db_verdicts": asyncio.run(verdicts()),
}
(HERE / "vectors.json").write_text(json.dumps(vectors, indent=1, ensure_ascii=False) + "\n")
print(f"wrote {db.name} ({db.stat().st_size} bytes) and vectors.json")
