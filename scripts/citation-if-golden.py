"""Labels citation_if cases with NeMo Gym's own scorer: runs its tests (tests/test_citation_if.py, test_residual_fuzz.py,
test_reward_hack_matrix.py) with score_citation_if wrapped, keeping every (text, function_call_count, verifier) call and
upstream's (reward, match_details); then the published rollouts.

usage: python3 scripts/citation-if-golden.py <NeMo Gym checkout> src/components/resources_servers/citation_if/data/golden.json
At most 400 cases per test file are kept (the fuzz file draws thousands), in call order.
"""
import json, sys

root = sys.argv[1]
sys.path.insert(0, root)
import resources_servers.citation_if.scorer as scorer  # noqa: E402
import pytest  # noqa: E402

cases = []
original = scorer.score_citation_if


def recording(text, function_call_count, verifier):
    reward, details = original(text, function_call_count, verifier)
    try:
        json.dumps([text, verifier])
    except TypeError:
        return reward, details
    import inspect
    source = next((f.filename.rsplit("/", 1)[-1] for f in inspect.stack() if "/tests/test_" in f.filename), "?")
    cases.append({"source": source, "text": text, "function_call_count": function_call_count, "verifier": verifier, "reward": reward, "details": details})
    return reward, details


scorer.score_citation_if = recording
here = f"{root}/resources_servers/citation_if/tests"
pytest.main(["-q", "-p", "no:cacheprovider", f"{here}/test_citation_if.py", f"{here}/test_residual_fuzz.py", f"{here}/test_reward_hack_matrix.py"], plugins=[])
seen, unique, per_file = set(), [], {}
for c in cases:
    key = json.dumps([c["text"], c["function_call_count"], c["verifier"]], sort_keys=True)
    if key not in seen and per_file.get(c["source"], 0) < 400:
        seen.add(key)
        per_file[c["source"]] = per_file.get(c["source"], 0) + 1
        unique.append(c)
with open(sys.argv[2], "w") as f:
    json.dump(unique, f, ensure_ascii=False)
    f.write("\n")
print(per_file, file=sys.stderr)
