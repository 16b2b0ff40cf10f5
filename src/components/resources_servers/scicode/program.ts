/**
 * One SciCode sub-step's test program, as NeMo Gym's scicode_integration/runner.py assembles it: the accumulated
 * solution, then `import h5py`, `import scipy`, `H5PY_FILE = "<path>"`, the target-loading and comparison helpers the
 * SciCode tests call (`process_hdf5_to_tuple`, `cmp_tuple_or_list`, `are_dicts_close`, … — nemo-skills' eval prefix,
 * rewritten here with the same behaviour), `targets = process_hdf5_to_tuple('<step>', <n>)`, and each test preceded
 * by `target = targets[i]`. Exit status 0 means every assertion held.
 */

/** Drops `from scicode.…` / `import scicode` lines (the helpers below stand in for them). */
export function sanitizeTest(testCase: string): string {
  return testCase
    .split("\n")
    .filter((line) => !/^\s*(from\s+scicode\.|import\s+scicode)\b/.test(line))
    .join("\n");
}

/** The helpers (Python), defined after `h5py`, `scipy` and `H5PY_FILE`. */
export const EVAL_HELPERS = String.raw`
def process_hdf5_list(group):
    return [group[name][()] for name in group.keys()]


def process_hdf5_dict(group):
    out = {}
    for name, item in group.items():
        if isinstance(item, h5py.Group):
            out[name] = process_hdf5_sparse_matrix(item['sparse_matrix'])
            continue
        value = item[()]
        if isinstance(value, bytes):
            out[name] = value.decode('utf-8', errors='strict')
            continue
        try:
            out[float(name)] = value
        except ValueError:
            out[name] = value
    return out


def process_hdf5_sparse_matrix(group):
    data = group['data'][()]
    shape = tuple(group['shape'][()])
    if 'row' in group and 'col' in group:
        return scipy.sparse.coo_matrix((data, (group['row'][()], group['col'][()])), shape=shape)
    if 'blocksize' in group:
        return scipy.sparse.bsr_matrix((data, group['indices'][()], group['indptr'][()]), shape=shape, blocksize=tuple(group['blocksize'][()]))
    return scipy.sparse.csr_matrix((data, group['indices'][()], group['indptr'][()]), shape=shape)


def process_hdf5_datagroup(group):
    # Decided by the group's first key only.
    for name in group.keys():
        if name == "list":
            return process_hdf5_list(group[name])
        if name == "sparse_matrix":
            return process_hdf5_sparse_matrix(group[name])
        return process_hdf5_dict(group)


def _hdf5_value(item):
    if isinstance(item, h5py.Dataset):
        value = item[()]
        return value.decode('utf-8', errors='strict') if isinstance(value, bytes) else value
    if isinstance(item, h5py.Group):
        return process_hdf5_datagroup(item)
    raise TypeError('unexpected HDF5 item %r' % (item,))


def process_hdf5_to_tuple(step_id, test_num, h5py_file=H5PY_FILE):
    targets = []
    with h5py.File(h5py_file, 'r') as f:
        for n in range(1, test_num + 1):
            path = f'{step_id}/test{n}'
            if not isinstance(f[path], h5py.Group):
                raise FileNotFoundError(f'Path {path} not found in the file.')
            names = list(f[path].keys())
            if len(names) == 1:
                item = f[path][names[0]]
                if isinstance(item, (h5py.Dataset, h5py.Group)):
                    targets.append(_hdf5_value(item))
            else:
                values = []
                for name in names:
                    item = f[path][name]
                    if isinstance(item, (h5py.Dataset, h5py.Group)):
                        values.append(_hdf5_value(item))
                targets.append(tuple(values))
    return targets


def process_symbol_in_dict(d):
    import sympy
    out = {}
    for key, value in d.items():
        out[key] = str(value) if isinstance(value, sympy.Symbol) else value
        if isinstance(key, sympy.Symbol):
            out[str(key)] = d[key]
            out.pop(key)
    return out


def are_dicts_close(dict1, dict2, atol=1e-8, rtol=1e-5):
    import numpy as np
    import scipy
    import sympy
    dict1 = process_symbol_in_dict(dict1)
    dict2 = process_symbol_in_dict(dict2)
    if dict1.keys() != dict2.keys():
        return False
    sparse = (scipy.sparse.csr_matrix, scipy.sparse.csc_matrix, scipy.sparse.bsr_matrix, scipy.sparse.coo_matrix)
    for key, a in dict1.items():
        b = dict2[key]
        if isinstance(a, (sympy.Symbol, str)):
            if not a == b:
                return False
        elif isinstance(a, sparse):
            if not np.allclose(a.toarray(), b.toarray(), atol=atol, rtol=rtol):
                return False
        else:
            try:
                if not np.allclose(a, b, atol=atol, rtol=rtol):
                    return False
            except ValueError:
                if not a == b:
                    return False
    return True


def are_csc_matrix_close(matrix1, matrix2):
    import numpy as np
    return np.allclose(matrix1.toarray(), matrix2.toarray())


def cmp_tuple_or_list(var1, var2):
    import numpy as np
    import scipy
    if len(var1) != len(var2):
        return False
    for a, b in zip(var1, var2):
        if isinstance(a, dict):
            if not are_dicts_close(a, b):
                return False
        elif isinstance(a, (scipy.sparse.csr_matrix, scipy.sparse.csc_matrix)):
            if not are_csc_matrix_close(a, b):
                return False
        elif isinstance(a, bool):
            if not a == b:
                return False
        else:
            try:
                if not np.allclose(a, b):
                    return False
            except ValueError as error:
                print(error)
                if not a == b:
                    return False
    return True
`;

/** The whole program for one sub-step (`json.dumps` of the path: a JSON string literal is a Python one here). */
export function buildTestProgram(solution: string, h5Path: string, stepNumber: string, tests: string[]): string {
  let program = `${solution}\nimport h5py\nimport scipy\nH5PY_FILE = ${JSON.stringify(h5Path)}\n${EVAL_HELPERS}\n`;
  program += `targets = process_hdf5_to_tuple('${stepNumber}', ${tests.length})\n`;
  tests.forEach((test, i) => (program += `target = targets[${i}]\n\n${test}\n`));
  return program;
}
