"""Regenerates fixtures/catalog_prepare/expected.json: what NeMo Gym's own benchmarks/<name>/prepare.py `prepare()`
writes when `datasets.load_dataset` hands it the rows of fixtures/catalog_prepare/inputs.json.

    /usr/bin/python3 scripts/catalog-prepare-golden.py GYM_DIR   # GYM_DIR: a NeMo Gym checkout (07d6b0d)

Stood in for: `datasets` (load_dataset, get_dataset_config_names: rows from inputs.json), `urllib.request`'s
urlretrieve / urlopen (mmlu-data.tar, mmmlu/*.csv, mmlu_prox/lang_libs.py from the fixtures), `tqdm` and
`nemo_gym.global_config` (none is installed here). Every prepare.py runs unchanged, writing into a temporary folder;
mmmlu needs pandas (Debian's /usr/bin/python3 has 1.5.3).
"""
import importlib.util, io, json, os, sys, tempfile, types
from pathlib import Path

gym_dir = Path(sys.argv[1])
fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "catalog_prepare"
inputs = json.loads((fixtures / "inputs.json").read_text(encoding="utf-8"))
calls = []

def load_dataset(repo, name=None, split=None, data_files=None, token=None):
    config = data_files[split] if data_files else (name or "default")
    if split is None:
        return {"train": load_dataset(repo, name, "train")}
    calls.append(f"{repo}|{config}|{split}")
    rows = inputs.get(f"{repo}|{config}|{split}", [])
    columns = list(dict.fromkeys(k for r in rows for k in r))  # `datasets` gives every row every column
    return [{c: r.get(c) for c in columns} for r in rows]

def get_dataset_config_names(repo):
    return list(dict.fromkeys(k.split("|")[1] for k in inputs if k.startswith(repo + "|")))

sys.modules["datasets"] = types.SimpleNamespace(load_dataset=load_dataset, get_dataset_config_names=get_dataset_config_names)
sys.modules["tqdm"] = types.ModuleType("tqdm")
sys.modules["tqdm.auto"] = types.SimpleNamespace(tqdm=lambda x, **k: x)
sys.modules["nemo_gym"] = types.ModuleType("nemo_gym")
sys.modules["nemo_gym.global_config"] = types.SimpleNamespace(HF_TOKEN_KEY_NAME="hf_token", get_global_config_dict=lambda: {})

import shutil, urllib.request
def urlretrieve(url, dest):  # mmlu's data.tar, mmmlu's simple-evals CSVs
    shutil.copy(fixtures / ("mmlu-data.tar" if url.endswith("/data.tar") else f"mmmlu/{url.rsplit('/', 1)[1]}"), dest)

class _Body(io.BytesIO):
    def __enter__(self): return self
    def __exit__(self, *a): return False

urllib.request.urlretrieve = urlretrieve
urllib.request.urlopen = lambda url: _Body((fixtures / "mmlu_prox" / "lang_libs.py").read_bytes())  # mmlu_prox's lang_libs.py
shutil.rmtree(gym_dir / "benchmarks" / "mmmlu" / "data", ignore_errors=True)  # its CSV cache

RUNS = {
    "aime24-x": {}, "aime25-x": {}, "gpqa-x": {}, "mmlu_pro": {}, "supergpqa": {},
    "mmlu-redux": {}, "frontierscience_research": {}, "global-piqa": {}, "mmlu": {}, "mmlu:dev": {"split": "dev"}, "mmmlu": {"languages": ["DE-DE", "JA-JP"], "include_english": True}, "mmlu_prox": {"languages": ["en", "ja", "af"]},
    "aime24-x:en": {"prompt_language": "en", "languages": ["fr", "de"]},
    "gpqa-x:en": {"prompt_language": "en", "languages": ["ja"]},
    "supergpqa:seed7": {"random_seed": 7},
}
out = {}
with tempfile.TemporaryDirectory() as tmp:
    for key, kwargs in RUNS.items():
        name = key.split(":")[0]
        spec = importlib.util.spec_from_file_location(f"prep_{name.replace('-', '_')}", gym_dir / "benchmarks" / name / "prepare.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.DATA_DIR = Path(tmp)
        module.OUTPUT_FPATH = Path(tmp) / f"{key}.jsonl"
        written = module.prepare(**kwargs)
        out[key] = Path(written).read_text(encoding="utf-8")
(fixtures / "expected.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
print(f"wrote {len(out)} outputs; load_dataset calls: {len(calls)}", file=sys.stderr)
