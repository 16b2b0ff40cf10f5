"""Writes fixtures/scicode/test_data.h5 (run with Debian's python3 and python3-h5py):

    /usr/bin/python3 scripts/scicode-fixture.py

Step "1.1": the targets of SciCode problem 1's three tests (resources_servers/scicode/data/example.jsonl), computed
by its ground_truth_code. Step "900.1" (our own): a tuple of two variables (array, scalar), a dict group (a
float-named key, UTF-8 text, a CSR sparse matrix) and a "list" group, in SciCode's layout.
"""
import json, re, os
import h5py
import numpy as np
import scipy.sparse

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
rows = [json.loads(l) for l in open(os.path.join(ROOT, "src/components/resources_servers/scicode/data/example.jsonl"))]
step = next(r for r in rows if r["problem_id"] == "1")["sub_steps"][0]
out = os.path.join(ROOT, "fixtures/scicode/test_data.h5")
with h5py.File(out, "w") as f:
    for n, test in enumerate(step["test_cases"], start=1):
        scope = {"np": np}
        exec(step["ground_truth_code"], scope)
        setup, last = test.rsplit("\n", 1)
        exec(setup, scope)
        expr = re.match(r"assert np\.allclose\((.*), target\)$", last).group(1)
        f.create_dataset(f"{step['step_number']}/test{n}/var1", data=eval(expr, scope))
    g = f.create_group("900.1/test1")
    g.create_dataset("var1", data=np.arange(3.0))
    g.create_dataset("var2", data=2.5)
    d = f.create_group("900.1/test2/var1")
    d.create_dataset("0.5", data=np.array([1.0, 2.0]))
    d.create_dataset("name", data="Grüße".encode("utf-8"))
    m = scipy.sparse.csr_matrix(np.array([[0.0, 1.0], [2.0, 0.0]]))
    s = d.create_group("mat/sparse_matrix")
    s.create_dataset("data", data=m.data); s.create_dataset("indices", data=m.indices); s.create_dataset("indptr", data=m.indptr); s.create_dataset("shape", data=np.array(m.shape))
    l = f.create_group("900.1/test3/var1/list")
    l.create_dataset("0", data=1.0); l.create_dataset("1", data=4.0)
print("wrote", out)
