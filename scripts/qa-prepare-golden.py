"""Regenerates fixtures/qa_prepare/expected.json: what NeMo Gym's own benchmarks/<name>/prepare.py `prepare()` writes
when `datasets.load_dataset` hands it the rows of fixtures/qa_prepare/inputs.json (knowledge, QA and proof benchmarks).

    python3 scripts/qa-prepare-golden.py GYM_DIR   # GYM_DIR: a NeMo Gym checkout (07d6b0d)

Stood in for: `datasets.load_dataset` (rows from inputs.json, every row given every column as `datasets` does) and
`tqdm`; every prepare.py runs unchanged, writing into a temporary folder.
"""
import importlib.util, json, sys, tempfile, types
from pathlib import Path

gym_dir = Path(sys.argv[1])
fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "qa_prepare"
inputs = json.loads((fixtures / "inputs.json").read_text(encoding="utf-8"))


def load_dataset(repo, name=None, split=None, **_):
    if split is None:  # load_dataset(repo)["train"]
        return {"train": load_dataset(repo, name, "train")}
    rows = inputs[f"{repo}|{name or 'default'}|{split}"]
    columns = list(dict.fromkeys(k for r in rows for k in r))
    return [{c: r.get(c) for c in columns} for r in rows]


sys.modules["datasets"] = types.SimpleNamespace(load_dataset=load_dataset)
sys.modules["tqdm"] = types.SimpleNamespace(tqdm=lambda x, **k: x)
# proof_bench_judge's Qwen3 filter: no `transformers` here. The stand-in counts UTF-8 bytes, which is what the test's
# byte-level tokenizer.json (fixtures/qa_prepare/qwen3-like-tokenizer.json) gives up to its two merges; the fixture's
# proofs sit far from the 10,000 threshold on either side, so both counts decide alike.
class _Tok:
    def encode(self, text): return list(text.encode("utf-8"))
sys.modules["transformers"] = types.SimpleNamespace(AutoTokenizer=types.SimpleNamespace(from_pretrained=lambda repo: _Tok()))

import io, urllib.request
class _Body(io.BytesIO):
    def __enter__(self): return self
    def __exit__(self, *a): return False
# polymath's instruction.py, imo_gradingbench's gradingbench.csv
urllib.request.urlopen = lambda url, **_: _Body((fixtures / ("imo_gradingbench.csv" if url.endswith(".csv") else "polymath_instruction.py")).read_bytes())
RUNS = {"hotpotqa_closedbook": {}, "polymath": {}, "polymath:en-zh-forcing_en": {"languages": ["en", "zh"], "language_control_mode": "forcing_en"}, "imo_gradingbench": {}, "proof_bench_judge": {}}
out = {}
with tempfile.TemporaryDirectory() as tmp:
    for key, kwargs in RUNS.items():
        name = key.split(":")[0]
        spec = importlib.util.spec_from_file_location(f"prep_{name.replace('-', '_')}", gym_dir / "benchmarks" / name / "prepare.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.DATA_DIR = Path(tmp)
        module.OUTPUT_FPATH = Path(tmp) / f"{key}.jsonl"
        out[key] = Path(module.prepare(**kwargs)).read_text(encoding="utf-8")
    # bunsenbench_chemistry_mcq: prepare() runs nvidia/bunsen-bench's own tools/reconstitute.py (downloaded code); its
    # output rows are the input here, through the benchmark's materialize.py unchanged.
    spec = importlib.util.spec_from_file_location("bunsen_materialize", gym_dir / "benchmarks" / "bunsenbench_chemistry_mcq" / "materialize.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.materialize_dataset(inputs["bunsenbench|reconstituted"], Path(tmp) / "bunsen.jsonl")
    out["bunsenbench_chemistry_mcq"] = Path(written).read_text(encoding="utf-8")
(fixtures / "expected.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
print(f"wrote {len(out)} outputs", file=sys.stderr)
