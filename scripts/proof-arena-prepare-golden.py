"""Regenerates fixtures/proof_arena_prepare/expected.jsonl: what NeMo Gym's own benchmarks/proof-arena-judge/prepare.py
`prepare()` writes when `datasets.load_dataset` hands it the rows of fixtures/proof_arena_prepare/inputs.json and
`requests.get` the fixture's openai_problem_<i>.txt (the Gemini proofs are the benchmark's own gemini_imo_2025/*.txt).

    python3 scripts/proof-arena-prepare-golden.py GYM_DIR   # GYM_DIR: a NeMo Gym checkout (07d6b0d)

Stood in for: `datasets.load_dataset` (rows by repo and revision; NeMo Gym's pinned revisions are checked),
`requests.get`, and `transformers`' tokenizer (UTF-8 bytes, as scripts/qa-prepare-golden.py explains); prepare.py
runs unchanged, writing into a temporary folder. Needs no network.
"""
import importlib.util, json, sys, tempfile, types
from pathlib import Path

gym_dir = Path(sys.argv[1])
fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "proof_arena_prepare"
inputs = json.loads((fixtures / "inputs.json").read_text(encoding="utf-8"))


def load_dataset(repo, revision=None, **_):
    rows = inputs[f"{repo}@{revision}" if revision else repo]
    columns = list(dict.fromkeys(k for r in rows for k in r))
    return {"train": [{c: r.get(c) for c in columns} for r in rows]}


class _Response:
    def __init__(self, url):
        name = url.rsplit("/", 1)[1]
        assert url.startswith("https://raw.githubusercontent.com/aw31/openai-imo-2025-proofs/main/"), url
        self.text = (fixtures / f"openai_{name}").read_text(encoding="utf-8")

    def raise_for_status(self):
        pass


class _Tok:
    def encode(self, text):
        return list(text.encode("utf-8"))


sys.modules["datasets"] = types.SimpleNamespace(load_dataset=load_dataset)
sys.modules["requests"] = types.SimpleNamespace(get=lambda url, timeout=None: _Response(url))
sys.modules["transformers"] = types.SimpleNamespace(AutoTokenizer=types.SimpleNamespace(from_pretrained=lambda repo: _Tok()))
spec = importlib.util.spec_from_file_location("prep_proof_arena_judge", gym_dir / "benchmarks" / "proof-arena-judge" / "prepare.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
with tempfile.TemporaryDirectory() as tmp:
    module.DATA_DIR = Path(tmp)
    out = module.prepare(Path(tmp) / "out.jsonl")
    (fixtures / "expected.jsonl").write_bytes(Path(out).read_bytes())
print("wrote fixtures/proof_arena_prepare/expected.jsonl", file=sys.stderr)
