"""Builds fixtures/iheval: a small IHEval archive (the first two settings of each task, two rows each, from
ytyz1307zzh/IHEval at 726a629) and the rows NeMo Gym's own prepare writes from it (resources_servers/iheval/prepare_iheval.py,
then benchmarks/iheval/prepare.py's convert_row). At NeMo Gym 07d6b0d convert_row raises KeyError on the tool-use rows
(get-webpage, slack-user: prepare_iheval already writes them in the Responses shape); those rows are recorded as its
intended pass-through (message items untouched, the agent renamed, id as str) and flagged.

usage: python3 scripts/iheval-prepare-golden.py <NeMo Gym checkout> <IHEval git dir>
"""
import importlib.util, io, json, os, subprocess, sys, tempfile, zipfile
from pathlib import Path

gym, iheval_git = sys.argv[1], sys.argv[2]
out = Path("fixtures/iheval")
files = subprocess.run(["git", "--git-dir", iheval_git, "ls-tree", "-r", "--name-only", "HEAD", "benchmark"], capture_output=True, text=True, check=True).stdout.split()
by_task = {}
for f in sorted(f for f in files if f.endswith("input_data.json")):
    task = "/".join(f.split("/")[1:3])
    by_task.setdefault(task, []).append(f)
buf = io.BytesIO()
with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp) / "IHEval-main"
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for task, paths in sorted(by_task.items()):
            for p in paths[:2]:
                data = json.loads(subprocess.run(["git", "--git-dir", iheval_git, "show", f"HEAD:{p}"], capture_output=True, check=True).stdout)
                text = json.dumps(data[:2], ensure_ascii=False, indent=2)
                zf.writestr(f"IHEval-main/{p}", text)
                (root / p).parent.mkdir(parents=True, exist_ok=True)
                (root / p).write_text(text, encoding="utf-8")
    (out / "IHEval-main.zip").write_bytes(buf.getvalue())
    os.environ["IHEVAL_REPO_DIR"] = str(root)
    spec = importlib.util.spec_from_file_location("prep", f"{gym}/resources_servers/iheval/prepare_iheval.py")
    prep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prep)
    prep._DATA_DIR = Path(tmp) / "data"
    prep.main([])
    spec = importlib.util.spec_from_file_location("bench", f"{gym}/benchmarks/iheval/prepare.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    lines = []
    for line in (Path(tmp) / "data" / "test.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        try:
            converted = bench.convert_row(row)
        except KeyError:
            converted = dict(row)
            converted["agent_ref"] = {"type": "responses_api_agents", "name": bench._BENCHMARK_AGENT}
            converted["id"] = str(converted["id"])
            print(f"convert_row raised on {row['task']} {row['setting']}: recorded as pass-through", file=sys.stderr)
        lines.append(json.dumps(converted, ensure_ascii=False) + "\n")
    (out / "expected.jsonl").write_text("".join(lines), encoding="utf-8")
print(len(lines), "rows", file=sys.stderr)
