"""Labels swe_pivot cases with NeMo Gym's own app.py (fastapi / nemo_gym / pydantic stubbed): expected and rollout tool
calls across the tool categories, in binary and continuous modes.

usage: python3 scripts/swe-pivot-golden.py <NeMo Gym checkout> src/components/resources_servers/swe_pivot/data/golden.json
"""
import asyncio, json, random, sys, types

root = sys.argv[1]
sys.path.insert(0, root)
for name in ("pydantic", "fastapi", "nemo_gym", "nemo_gym.base_resources_server"):
    sys.modules[name] = types.ModuleType(name)


class BaseModel:
    def __init__(self, **kw):
        self.__dict__.update(kw)


sys.modules["pydantic"].ConfigDict = dict
sys.modules["fastapi"].FastAPI = object
brs = sys.modules["nemo_gym.base_resources_server"]
for cls in ("BaseResourcesServerConfig", "BaseRunRequest", "BaseVerifyRequest", "BaseVerifyResponse"):
    setattr(brs, cls, type(cls, (BaseModel,), {}))
brs.SimpleResourcesServer = object
import resources_servers.swe_pivot.app as app  # noqa: E402

rng = random.Random(5)
paths = ["/repo/src/app.py", "src/app.py", "/repo/tests/test_app.py", "app.py", "/other/src/app.py", "./src/utils/helpers.py"]
cmds = ["grep -rn foo src/app.py", "grep -n foo /repo/src/app.py", "pytest tests/test_app.py -x", "python -m pytest /repo/tests/test_app.py", "cd /repo && ls", "/usr/bin/grep foo", "cat ./src/utils/helpers.py", "ls --color=auto src/", "echo hi"]
strs = ["def f():\n    return 1\n", "def f():\n    return 2\n", "", "x = 1", "return value * 2  # fixed", "import os\n" * 40]


def edit_args():
    kind = rng.choice(["str_replace", "create", "view", "patch", "insert"])
    a = {"command": kind, "path": rng.choice(paths)}
    if kind == "str_replace":
        a["old_str"], a["new_str"] = rng.choice(strs), rng.choice(strs)
    elif kind == "create":
        a["file_text" if rng.random() < 0.5 else "content"] = rng.choice(strs)
    elif kind == "view":
        if rng.random() < 0.7:
            s = rng.randint(1, 50)
            a["view_range"] = rng.choice([[s, s + rng.randint(0, 30)], json.dumps([s, s + 10]), [s, "x"]])
    elif kind == "patch":
        a = {"patch": rng.choice(strs)}
    return a


def call(cat):
    names = {"edit": ["str_replace_editor", "StrReplaceEditor", "apply_patch", "write_file", "edit"], "bash": ["execute_bash", "bash", "Shell", "run_shell_cmd"],
             "search": ["grep", "glob", "list_dir"], "read": ["read_file", "view"], "finish": ["finish"], "other": ["mystery_tool", "think", "todo_write"]}
    name = rng.choice(names[cat])
    if cat == "edit":
        args = edit_args()
    elif cat == "bash":
        args = {rng.choice(["command", "cmd"]): rng.choice(cmds)}
    elif cat in ("search", "read"):
        args = {rng.choice(["path", "file_path", "pattern"]): rng.choice(paths)}
    else:
        args = {}
    raw = rng.choice([json.dumps(args), json.dumps(args), "not json", json.dumps([1, 2]), json.dumps("path"), json.dumps(7)]) if rng.random() < 0.15 else json.dumps(args)
    return name, raw


cases = []
for _ in range(400):
    cat = rng.choice(["edit", "edit", "bash", "bash", "search", "read", "finish", "other"])
    e_name, e_raw = call(cat)
    r_cat = cat if rng.random() < 0.7 else rng.choice(["edit", "bash", "search", "read", "other"])
    r_name, r_raw = call(r_cat)
    where = rng.choice(["expected_action", "expected_answer", "metadata", "none", "bad"])
    row = {"uuid": "u", "expected_answer": None, "expected_action": None, "metadata": None}
    ea = {"type": "function_call", "name": e_name, "arguments": e_raw}
    if where == "expected_action":
        row["expected_action"] = ea
    elif where == "expected_answer":
        row["expected_answer"] = json.dumps(ea)
    elif where == "metadata":
        row["metadata"] = {"expected_action": ea, "category": cat}
    elif where == "bad":
        row["expected_action"] = {"type": "function_call", "arguments": e_raw}
    output = [{"type": "function_call", "name": r_name, "arguments": r_raw}] if rng.random() < 0.9 else [{"type": "message"}]
    config = {"reward_mode": rng.choice(["binary", "continuous"]), "enable_target_match": rng.random() < 0.9, "enable_argument_similarity": rng.random() < 0.9,
              "similarity_threshold": 0.4, "similarity_full_credit": 0.8, "enable_diff_size_shaping": True, "diff_size_alpha": 0.1}
    body = types.SimpleNamespace(**row, responses_create_params={}, response=types.SimpleNamespace(output=[types.SimpleNamespace(**o) for o in output]))
    server = app.SwePivotResourcesServer.__new__(app.SwePivotResourcesServer)
    object.__setattr__(server, "config", types.SimpleNamespace(**config))
    out = asyncio.run(app.SwePivotResourcesServer.verify(server, body))
    fields = {k: getattr(out, k) for k in ("reward", "expected_answer", "model_output", "tool_name_match", "target_match", "similarity_score", "diff_size_penalty")}
    fields["failure_reason"] = out.failure_reason.value
    cases.append({"row": row, "output": output, "config": config, "out": fields})
with open(sys.argv[2], "w") as f:
    json.dump(cases, f, ensure_ascii=False)
    f.write("\n")
import collections
print(collections.Counter(c["out"]["failure_reason"] for c in cases), file=sys.stderr)
