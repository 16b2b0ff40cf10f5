/** (task, rollout) order of rows read in any order, on typed arrays. */

/**
 * Row numbers 0..n−1 sorted by (task, rollout), ties in read order (Python's stable sort). Task keys that
 * are checked indices (non-negative whole numbers, not too sparse) take a counting sort by task, which
 * leaves each task's rows in read order — already rollout order in the files a run writes (repeat-major or
 * task-major) — then a stable insertion sort of any task whose rows are not. Other keys, or many unordered
 * tasks, take the merge sort below, which gives the same order.
 */
export function sortedOrder(task: Float64Array, rollout: Float64Array, n: number): Int32Array {
  let max = 0;
  for (let i = 0; i < n; i++) {
    const t = task[i]!;
    if (!(t >= 0 && t === Math.floor(t))) return mergeSortedOrder(task, rollout, n);
    if (t > max) max = t;
  }
  if (n === 0 || max > 4 * n + 1024) return mergeSortedOrder(task, rollout, n);
  const starts = new Int32Array(max + 2);
  for (let i = 0; i < n; i++) starts[task[i]! + 1]!++;
  for (let t = 0; t <= max; t++) starts[t + 1]! += starts[t]!;
  const order = new Int32Array(n);
  const fill = starts.slice(0, max + 1);
  for (let i = 0; i < n; i++) order[fill[task[i]!]!++] = i;
  // Within a task the rows are in read order; sort those whose rollouts are not ascending (a few, small).
  let work = 0;
  for (let t = 0; t <= max; t++) {
    const from = starts[t]!;
    const to = starts[t + 1]!;
    let sorted = true;
    for (let p = from + 1; p < to; p++) if (rollout[order[p]!]! < rollout[order[p - 1]!]!) (sorted = false), (p = to);
    if (sorted) continue;
    const k = to - from;
    if (k > 256 || (work += k * k) > 16 * n + 65536) return mergeSortedOrder(task, rollout, n);
    for (let p = from + 1; p < to; p++) {
      const row = order[p]!;
      const key = rollout[row]!;
      let q = p - 1;
      // Strictly greater moves right: equal keys keep read order.
      while (q >= from && rollout[order[q]!]! > key) (order[q + 1] = order[q]!), q--;
      order[q + 1] = row;
    }
  }
  return order;
}

/**
 * The general case, same order: a stable natural merge sort. Runs already in order are found first and
 * merged pairwise, so sorted input costs one pass and k interleaved sorted
 * runs (shards, repeats) cost n·log k.
 */
export function mergeSortedOrder(task: Float64Array, rollout: Float64Array, n: number): Int32Array {
  let a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  for (let i = 0; i < n; i++) {
    // NaN keys (a non-numeric index) make the comparator inconsistent: keep what the engine's sort does with it.
    if (task[i] !== task[i] || rollout[i] !== rollout[i]) return a.sort((x, y) => task[x]! - task[y]! || rollout[x]! - rollout[y]! || x - y);
  }
  const starts: number[] = [0];
  for (let i = 1; i < n; i++) if (task[i]! < task[i - 1]! || (task[i] === task[i - 1] && rollout[i]! < rollout[i - 1]!)) starts.push(i);
  if (starts.length === 1) return a;
  starts.push(n);
  let b = new Int32Array(n);
  let bounds = starts;
  while (bounds.length > 2) {
    const next: number[] = [0];
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r]!;
      const mid = bounds[r + 1]!;
      const hi = r + 2 < bounds.length ? bounds[r + 2]! : mid;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        const x = a[i]!;
        const y = a[j]!;
        // Take the right one only when strictly smaller: equal keys keep read order.
        if (task[y]! < task[x]! || (task[y] === task[x] && rollout[y]! < rollout[x]!)) (b[k++] = y), j++;
        else (b[k++] = x), i++;
      }
      while (i < mid) b[k++] = a[i++]!;
      while (j < hi) b[k++] = a[j++]!;
      next.push(hi);
    }
    bounds = next;
    [a, b] = [b, a];
  }
  return a;
}
