"""Regenerates fixtures/long_context/expected.json and token_counts.json: what NeMo Gym's own benchmarks/<name>/prepare.py
`prepare()` writes for the rows of fixtures/long_context/inputs.json, and Python tiktoken's o200k_base / cl100k_base
counts of the texts of fixtures/long_context/token_texts.json.

    python scripts/long-context-golden.py GYM_DIR   # a python with tiktoken 0.14.0; GYM_DIR: a NeMo Gym checkout (07d6b0d)

tiktoken's rank files are rebuilt from js-tiktoken's tables (node_modules/js-tiktoken/dist/ranks/*.js) into a
TIKTOKEN_CACHE_DIR; tiktoken itself refuses a cached file whose sha256 is not the one it pins for the encoding, so a
run proves the two libraries hold the same ranks. Stood in for: `datasets.load_dataset` (rows from inputs.json;
LongCodeQA.zip read as `datasets`' json builder reads an archive: every file, in os.walk order, each a JSON array) and
`tqdm` (not installed here). Every prepare.py runs unchanged, writing into a temporary folder.
"""
import base64, hashlib, importlib.util, json, os, sys, tempfile, types, zipfile
from pathlib import Path

gym_dir = Path(sys.argv[1])
root = Path(__file__).resolve().parent.parent
fixtures = root / "fixtures" / "long_context"
cache = Path(tempfile.mkdtemp())
for name in ("o200k_base", "cl100k_base"):
    table = json.loads((root / "node_modules/js-tiktoken/dist/ranks" / f"{name}.js").read_text().removeprefix("export default ").rstrip().rstrip(";"))
    lines = []
    for line in filter(None, table["bpe_ranks"].split("\n")):
        _, offset, *tokens = line.split(" ")
        lines += [(int(offset) + i, t) for i, t in enumerate(tokens)]
    data = "".join(f"{t} {r}\n" for r, t in sorted(lines)).encode()
    url = f"https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
    (cache / hashlib.sha1(url.encode()).hexdigest()).write_bytes(data)
os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
import tiktoken

texts = json.loads((fixtures / "token_texts.json").read_text(encoding="utf-8"))
counts = {name: [len(tiktoken.get_encoding(name).encode(t, disallowed_special=())) for t in texts] for name in ("o200k_base", "cl100k_base")}
(fixtures / "token_counts.json").write_text(json.dumps({"tiktoken": tiktoken.__version__, **counts}) + "\n")

inputs = json.loads((fixtures / "inputs.json").read_text(encoding="utf-8"))

def load_dataset(repo, name=None, split=None, data_files=None):
    if repo == "json":
        rows = []
        with tempfile.TemporaryDirectory() as unpacked:
            zipfile.ZipFile(fixtures / "LongCodeQA.zip").extractall(unpacked)
            for dirpath, dirnames, filenames in os.walk(unpacked):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__")))
                for f in sorted(filenames):
                    if not f.startswith((".", "__")):
                        rows += json.loads(Path(dirpath, f).read_text(encoding="utf-8"))
        columns = list(dict.fromkeys(k for r in rows for k in r))
        return {"train": [{c: r.get(c) for c in columns} for r in rows]}
    rows = inputs[repo]
    columns = list(dict.fromkeys(k for r in rows for k in r))
    return [{c: r.get(c) for c in columns} for r in rows]

sys.modules["datasets"] = types.SimpleNamespace(load_dataset=load_dataset)
sys.modules["tqdm"] = types.SimpleNamespace(tqdm=lambda x, **k: x)

RUNS = {
    "longbench_v2": {}, "longbench_v2:cap": {"max_context_tokens": 60}, "longbench_v2:cl100k": {"tokenizer_name": "cl100k_base"},
    "longcodebench": {}, "longcodebench:cap": {"max_context_tokens": 120},
    "mrcr": {}, "mrcr:cap": {"max_context_tokens": 62},
    "graphwalks": {}, "graphwalks:cap": {"max_context_tokens": 50},
}
out = {}
with tempfile.TemporaryDirectory() as tmp:
    for key, kwargs in RUNS.items():
        name = key.split(":")[0]
        spec = importlib.util.spec_from_file_location(f"prep_{name}", gym_dir / "benchmarks" / name / "prepare.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        written = module.prepare(output_fpath=Path(tmp) / f"{key}.jsonl", **kwargs)
        out[key] = Path(written).read_text(encoding="utf-8")
# ruler: prepare_utils.prepare_helper with its two `run` calls (uv, RULER's generator) skipped and the generator's
# output taken from fixtures/long_context/ruler_data; its iterdir() (file-system order) sorted, as gym sorts it.
sys.modules["nemo_gym"] = types.ModuleType("nemo_gym")
sys.modules["nemo_gym.global_config"] = types.SimpleNamespace(get_hf_token=lambda: None)
import shutil
_iterdir = Path.iterdir
Path.iterdir = lambda self: iter(sorted(_iterdir(self)))
for data_format in ("chat", "default", "base"):
    spec = importlib.util.spec_from_file_location("ruler_prepare", gym_dir / "benchmarks" / "ruler" / "prepare_utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with tempfile.TemporaryDirectory() as tmp:
        module.BENCHMARK_DIR = Path(tmp)
        module.DATA_DIR = Path(tmp) / "data"
        module.run = lambda *a, **k: None
        shutil.copytree(fixtures / "ruler_data", Path(tmp) / "temp_ruler_data_dir" / "model" / "4096" / "ruler_data")
        written = module.prepare_helper(output_name="ruler.jsonl", model="model", length=4096, data_format=data_format)
        out[f"ruler:{data_format}"] = Path(written).read_text(encoding="utf-8")
Path.iterdir = _iterdir
# ruler2: prepare() with its venv and generator runs skipped, TMP_DIR a copy of fixtures/long_context/ruler2_data.
for key, tasks in (("ruler2", ("mk_niah_basic", "mk_niah_medium", "mv_niah_medium", "qa_basic")), ("ruler2:subset", ("qa_basic", "mk_niah_medium"))):
    spec = importlib.util.spec_from_file_location("ruler2_prepare", gym_dir / "benchmarks" / "ruler2" / "prepare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(fixtures / "ruler2_data", Path(tmp) / "gen")
        module.TMP_DIR, module.DATA_DIR, module.OUTPUT_FPATH = Path(tmp) / "gen", Path(tmp), Path(tmp) / "out.jsonl"
        module._ensure_venv = lambda: None
        module._run_one_task = lambda *a: None
        out[key] = module.prepare(tasks=tasks, model="m", max_seq_length=1, dataset_size=1).read_text(encoding="utf-8")
(fixtures / "expected.json").write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
print(f"wrote {len(out)} outputs and {len(texts)} token counts", file=sys.stderr)
