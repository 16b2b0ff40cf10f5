"""The verifier prompts NeMo Gym's proof_judge sends for its published rollouts (its own parse_response and template),
plus parse_response on edge cases.

usage: python3 scripts/proof-judge-golden.py <NeMo Gym checkout> src/components/resources_servers/proof_judge/data/golden.json
"""
import json, sys

import yaml

root = sys.argv[1] + "/resources_servers/proof_judge"
src = open(f"{root}/app.py").read()
ns = {}
exec("from typing import Any, Optional\n" + src[src.index("def extract_boxed_score"):src.index("def validate_text_length")] + src[src.index("SOLUTION_HEADER = "):src.index("class ProofWithJudgeResourcesServerConfig")], ns)
verifier = yaml.safe_load(open(f"{root}/prompt_templates/verifier.yaml"))["user"]
meta = yaml.safe_load(open(f"{root}/prompt_templates/meta-verifier.yaml"))["user"]
prompts = []
for line in open(f"{root}/data/example_rollouts.jsonl"):
    row = json.loads(line)
    text = "".join(c.get("text", "") or "" for o in row["response"]["output"] if o["type"] == "message" and o.get("role") == "assistant" for c in o["content"] if c["type"] == "output_text")
    (proof, self_eval, s_prime), _ = ns["parse_response"](text)
    prompts.append({"verifier": verifier.format(problem=row["problem"], proof=proof), "meta": meta.format(problem=row["problem"], proof=proof, proof_analysis=self_eval), "s_prime": s_prime})
edge = ["", "## Solution p", "## Solution p ## Self Evaluation none", "x</think>## Solution\n p \n## Self Evaluation\n \\boxed{0.5}", "## Solution a ## Self Evaluation \\boxed{ 1 } b",
        "## Solution a ## Self Evaluation \\boxed{2}", "## Self Evaluation ## Solution a ## Self Evaluation \\boxed{0}", "<think>## Solution x</think>no headers", "## Solution a ## Self Evaluation \\boxed{1e0}", "## Solution a ## Self Evaluation \\boxed{0.50}"]
cases = []
for text in edge:
    for assert_end in (False, True):
        parsed, reason = ns["parse_response"](text, assert_think_end=assert_end)
        cases.append({"text": text, "assert_think_end": assert_end, "parsed": list(parsed) if parsed else None, "reason": reason})
with open(sys.argv[2], "w") as f:
    json.dump({"prompts": prompts, "parse": cases}, f, ensure_ascii=False)
    f.write("\n")
