"""Regenerates fixtures/qa/golden.json: NeMo Gym's own pure functions (taken by AST from its app.py files at the
pinned commit and executed unchanged, with only `re`, `string`, `collections` and `typing` available) applied to
the cases in fixtures/qa/cases.json.

    python3 scripts/qa-golden.py GYM_DIR   # GYM_DIR: a NeMo Gym checkout at 07d6b0d (git worktree or export)
"""
import __future__, ast, json, sys
from pathlib import Path

gym_dir = Path(sys.argv[1])
fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "qa"
cases = json.loads((fixtures / "cases.json").read_text(encoding="utf-8"))


def load(path, names, also=()):
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
        elif isinstance(node, ast.ClassDef):  # static methods named Class.method become plain functions
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and f"{node.name}.{item.name}" in names:
                    item.decorator_list = []
                    item.name = f"{node.name}__{item.name}"
                    keep.append(item)
    scope = {}
    for other in also:  # functions the module imports from another server's app.py (mcqa's helpers)
        scope.update(load(other, []))
    # Annotations stay unevaluated: they name the pydantic classes left out.
    exec(compile(ast.Module(body=keep, type_ignores=[]), str(path), "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True), scope)
    return scope


out = {}
for group, spec in cases.items():
    scope = load(spec["module"], [spec["function"]], spec.get("also", ()))
    if spec["function"] == "__pairs__":  # (ground truth, answer) -> [is_correct, is_correct_strict] over normalize_gt's alternatives
        fn = lambda gt, ans, s=scope: [s["is_correct"](s["normalize_gt"](gt)["alternatives"], ans), s["is_correct_strict"](s["normalize_gt"](gt)["alternatives"], ans)]
    elif spec["function"] == "__match__":  # (prediction, options) -> match_label(prediction, candidate_labels(options or ["x"]))
        fn = lambda pred, options, s=scope: s["match_label"](pred, s["candidate_labels"](options))
    elif spec["function"] == "__bunsen__":  # (text, options) -> extract_bunsen_answer with the server's allowed letters
        fn = lambda text, options, s=scope: s["extract_bunsen_answer"](text, options, s["_get_allowed_letters_from_options"](options))
    elif spec["function"] == "__polymath__":  # tasks -> weighted metrics with math_with_judge's score function
        scope = load(spec["module"], ["PolyMathResourcesServer._compute_weighted_pass_majority_metrics"], ())
        score = load("resources_servers/math_with_judge/app.py", ["LibraryJudgeMathResourcesServer._math_score_fn"])["LibraryJudgeMathResourcesServer___math_score_fn"]
        fn = lambda tasks, s=scope: s["PolyMathResourcesServer___compute_weighted_pass_majority_metrics"](tasks, score, "extracted_answer")
    elif spec["function"] == "__ragtruth__":  # (reply, think tag) -> [pred_halu, parse_fail, extracted] as verify() derives them
        def fn(raw, tag, s=scope):
            parsed = s["_parse_response"](raw, think_tag=tag)
            lst = parsed.get("hallucination list") if isinstance(parsed, dict) else None
            return [s["_has_hallucination"](parsed), parsed is None, json.dumps(lst, ensure_ascii=False)[:500] if isinstance(lst, list) else ""]
    else:
        fn = scope[spec["function"]]
    out[group] = [{"args": args, "expected": fn(*args)} for args in spec["cases"]]
(fixtures / "golden.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
print(f"wrote {sum(len(v) for v in out.values())} labelled cases", file=sys.stderr)
