"""Regenerates fixtures/qa/golden.json: NeMo Gym's own pure functions (taken by AST from its app.py files at the
pinned commit and executed unchanged, with only `re`, `string`, `collections` and `typing` available) applied to
the cases in fixtures/qa/cases.json.

    python3 scripts/qa-golden.py GYM_DIR   # GYM_DIR: a NeMo Gym checkout at 07d6b0d (git worktree or export)
"""
import ast, json, sys
from pathlib import Path

gym_dir = Path(sys.argv[1])
fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "qa"
cases = json.loads((fixtures / "cases.json").read_text(encoding="utf-8"))


def load(path, names):
    """The module's plain imports, constants and functions (classes and nemo_gym imports left out)."""
    tree = ast.parse((gym_dir / path).read_text(encoding="utf-8"))
    keep = []
    for node in tree.body:
        if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.module in ("typing", "collections", "__future__")):
            keep.append(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            keep.append(node)
        elif isinstance(node, ast.FunctionDef):
            keep.append(node)
    scope = {}
    exec(compile(ast.Module(body=keep, type_ignores=[]), str(path), "exec"), scope)
    return scope


out = {}
for group, spec in cases.items():
    scope = load(spec["module"], [spec["function"], "normalize_gt", "is_correct", "is_correct_strict"])
    if spec["function"] == "__pairs__":  # (ground truth, answer) -> [is_correct, is_correct_strict] over normalize_gt's alternatives
        fn = lambda gt, ans, s=scope: [s["is_correct"](s["normalize_gt"](gt)["alternatives"], ans), s["is_correct_strict"](s["normalize_gt"](gt)["alternatives"], ans)]
    elif spec["function"] == "__match__":  # (prediction, options) -> match_label(prediction, candidate_labels(options or ["x"]))
        fn = lambda pred, options, s=scope: s["match_label"](pred, s["candidate_labels"](options))
    else:
        fn = scope[spec["function"]]
    out[group] = [{"args": args, "expected": fn(*args)} for args in spec["cases"]]
(fixtures / "golden.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
print(f"wrote {sum(len(v) for v in out.values())} labelled cases", file=sys.stderr)
