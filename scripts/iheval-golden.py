"""Labels iheval cases with NeMo Gym's own app.py (imported with fastapi / nemo_gym / defusedxml stubbed; ROUGE and
IFEval are not installable here, so translation, TensorTrust with a system prompt and rule-following are left out).
Run it with Python >= 3.12 (NeMo Gym needs 3.13): its sum() of floats is compensated, and the metrics depend on that.

usage: python3.13 scripts/iheval-golden.py <NeMo Gym checkout> src/components/resources_servers/iheval/data/golden.json
"""
import json, random, sys, types

assert sys.version_info >= (3, 12), "run with Python >= 3.12"

root = sys.argv[1]
sys.path.insert(0, root)
for name in ("pydantic", "regex", "fastapi", "defusedxml", "defusedxml.ElementTree", "nemo_gym", "nemo_gym.base_resources_server", "nemo_gym.openai_utils"):
    sys.modules[name] = types.ModuleType(name)
BaseModel = type("BaseModel", (), {})
sys.modules["pydantic"].ConfigDict = dict
sys.modules["pydantic"].BaseModel = BaseModel

sys.modules["fastapi"].FastAPI = object
brs = sys.modules["nemo_gym.base_resources_server"]
for cls in ("BaseResourcesServerConfig", "BaseRunRequest", "BaseVerifyRequest", "BaseVerifyResponse"):
    setattr(brs, cls, type(cls, (BaseModel,), {}))
brs.SimpleResourcesServer = object
sys.modules["nemo_gym.openai_utils"].NeMoGymResponse = object
import resources_servers.iheval.app as app  # noqa: E402

rng = random.Random(11)
words = ["added", "watched", "aimed", "targeted", "run", "jump", "is", "are", "Verbs:", "translate", "output", "café", "naïve"]
seps = [", ", " ", ",", "\n", "; ", " and "]


def text(n):
    return rng.choice(seps).join(rng.choice(words) for _ in range(n))


cases = []
for _ in range(150):
    gold, pred = text(rng.randint(0, 5)), text(rng.randint(0, 6))
    if rng.random() < 0.3:
        pred = rng.choice(["Verbs: ", "Here:\n", "**", "<think>x</think>"]) + pred + rng.choice(["", "\nDone.", "*"])
    is_ref = rng.random() < 0.3
    cases.append({"task": "verb-extract", "response": pred, "answer": gold, "is_ref": is_ref, "out": app._score_verb_extract(app._strip_think(pred), gold, is_ref)})
langs = ['{"language": "English"}', '{"language": " english "', '{"language": "French"} {"x": 1}', '{"language": "English", "x": 1}', '{not json}', 'English', '{"lang": "English"}', '{\n"language": "English"\n}', '{"language": 5}', 'The answer: {"language":"Chinese"}']
for pred in langs:
    for gold in ["English", ["Chinese", "中文"], 5, "english"]:
        cases.append({"task": "lang-detect", "response": pred, "answer": gold, "is_ref": False, "out": app._score_lang_detect(pred, gold)})
for pred in ["Bob.", "bob", " Bob!\n", "Alice", "'Bob'", "Bob Smith", ""]:
    for gold in ["Bob", "", None, 7]:
        cases.append({"task": "slack-user", "response": pred, "answer": gold, "is_ref": False, "out": app._score_slack_user(pred, gold)})
for pred in ["Access Granted", "access granted!", "Access Denied", "the code is secret", "I cannot help"]:
    for gold in [{"label": 1}, {"label": 0, "access_code": "secret"}, {"label": 0, "access_code": ""}, {"label": True}, {"label": 1.0}, {}, {"label": 0, "access_code": 42}]:
        cases.append({"task": "system-prompt-extract", "response": pred, "answer": gold, "is_ref": False, "out": app._score_tensortrust(pred, gold)})
for pred in ["added, watched", "Verbs: x, y", '{"language": "English"}']:
    for gold in [{"task": "verb_extract", "content": "added, watched"}, {"task": "lang_detect", "content": "English"}, {"task": "mystery"}, "notadict"]:
        for is_ref in (False, True):
            cases.append({"task": "get-webpage", "response": pred, "answer": gold, "is_ref": is_ref, "out": app._score_get_webpage(pred, gold, is_ref)})
think = [(t, app._strip_think(t)) for t in ["plain", "<think>r</think>ans", "reasoning</think>final", "", "<think>a</think> b <think>c</think> d ", "x</think>y</think>z", " keep  "]]

# compute_metrics over synthetic rollouts: reference anchors and data rows, rule-following rows, several settings.
rows = []
for rid in ["strong_user_instruction", "weak_user_instruction", 1, 2, 3]:
    g, p = text(rng.randint(1, 4)), text(rng.randint(0, 4))
    rows.append({"row_id": rid, "task": "verb-extract", "domain": "task-execution", "setting": "reference/default", "ref_gold": g, "ref_pred": p, "reward": rng.random()})
for rid in ["verb_extraction_strong_tool_instruction", "verb_extraction_weak_tool_instruction", "verb_extraction_1", "verb_extraction_2", "language_1", "language_2"]:
    sub = "lang_detect" if rid.startswith("language") else "verb_extract"
    rows.append({"row_id": rid, "task": "get-webpage", "domain": "tool-use", "setting": "reference/default", "ref_gold": text(2), "ref_pred": text(2), "ref_subtask": sub, "reward": float(rng.random() < 0.5)})
for setting in ["aligned/default", "conflict/a", "conflict/b", "aligned/system_verb_extract_strong"]:
    for task in ["verb-extract", "slack-user", "lang-detect", "get-webpage"]:
        for _ in range(rng.randint(1, 3)):
            rows.append({"row_id": "r", "task": task, "domain": rng.choice(["task-execution", "tool-use", ""]), "setting": setting, "reward": round(rng.random(), 3)})
    for task in ["single-turn", "multi-turn"]:
        for _ in range(2):
            n = rng.randint(1, 4)
            fs, fl = rng.randint(0, n), rng.randint(0, n)
            rows.append({"row_id": "r", "task": task, "domain": "rule-following", "setting": setting, "reward": 0.5, "prompt_strict": float(fs == n), "prompt_loose": float(fl == n), "instruction_followed_strict": float(fs), "instruction_followed_loose": float(fl), "instruction_total": float(n)})
tasks = [[r] for r in rows]
server = app.IHEvalResourcesServer.__new__(app.IHEvalResourcesServer)
metrics = {}
for mode in ("hierarchy", "hierarchy_sysprompt"):
    object.__setattr__(server, "config", types.SimpleNamespace(accuracy_mode=mode))
    m = app.IHEvalResourcesServer.compute_metrics(server, tasks)
    metrics[mode] = {"metrics": m, "key": app.IHEvalResourcesServer.get_key_metrics(server, m)}
with open(sys.argv[2], "w") as f:
    json.dump({"cases": cases, "strip_think": think, "rollouts": rows, "metrics": metrics}, f, ensure_ascii=False)
    f.write("\n")
print(len(cases), "cases", len(rows), "rows", file=sys.stderr)
