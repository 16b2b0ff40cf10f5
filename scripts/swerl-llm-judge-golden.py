"""Labels swerl_llm_judge cases with NeMo Gym's own functions (app.py with fastapi / nemo_gym stubbed).

usage: python3 scripts/swerl-llm-judge-golden.py <NeMo Gym checkout> src/components/resources_servers/swerl_llm_judge/data/golden.json
"""
import json, random, sys, types

root = sys.argv[1]
sys.path.insert(0, root)
for name in ("fastapi", "nemo_gym", "nemo_gym.base_resources_server"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["fastapi"].FastAPI = object
brs = sys.modules["nemo_gym.base_resources_server"]
from pydantic import BaseModel  # noqa: E402

for cls in ("BaseResourcesServerConfig", "BaseRunRequest", "BaseVerifyRequest", "BaseVerifyResponse"):
    setattr(brs, cls, type(cls, (BaseModel,), {}))
brs.SimpleResourcesServer = object
import resources_servers.swerl_llm_judge.app as app  # noqa: E402

rng = random.Random(3)
blocks = ["A", "B", "C", "[B]", "[C]", " c ", "The answer is C", "I pick (D).", "AB", "A and B", "", "x", "é", "Option B because", "[a]", "Z", "2", "B\n"]
wraps = ["<solution>{}</solution>"] * 4 + [ "<SOLUTION>{}</Solution>", "reasoning <solution>A</solution> then <solution>{}</solution>", "no block {}", "<solution>\n{}\n</solution> trailing", "<solution>{}"]
option_sets = [[{"A": "x"}, {"B": "y"}, {"C": "z"}, {"D": "w"}]] * 4 + [ [{"a": "x"}, {"b": "y"}], [], None, [{"AB": "x"}, {"C": "y"}], [{"C": "1", "D": "2"}]]
expected = ["A", "B", "C", "B", "A", " c ", ["B", "D"], ["b", "B", "x"], None, "AB", ["C"], 5, "é"]
cases = []
for _ in range(300):
    text = rng.choice(wraps).format(rng.choice(blocks))
    options = rng.choice(option_sets)
    exp = rng.choice(expected)
    allowed = app._get_allowed_letters_from_options(options)
    golds = [g for g in app._normalize_expected_answers(expected_answer=exp) if (not allowed) or (g in allowed)]
    for mode in ("lenient", "strict"):
        choice = (app._extract_llm_choice_from_solution_block_lenient if mode == "lenient" else app._extract_llm_choice_from_solution_block_strict)(text, allowed)
        cases.append({"text": text, "options": options, "expected_answer": exp, "grading_mode": mode,
                      "out": {"reward": 1.0 if choice is not None and choice in golds else 0.0, "expected_answer": golds[0] if len(golds) == 1 else golds, "extracted_answer": choice}})
with open(sys.argv[2], "w") as f:
    json.dump(cases, f, ensure_ascii=False)
    f.write("\n")
