/** (task, rollout) order of rows read in any order: a stable natural merge sort on typed arrays (already sorted input costs one pass). */

/**
 * Row numbers 0..n−1 sorted by (task, rollout), ties in read order (Python's stable sort). Runs already
 * in order are found first and merged pairwise, so sorted input costs one pass and k interleaved sorted
 * runs (shards, repeats) cost n·log k.
 */
export function sortedOrder(task: Float64Array, rollout: Float64Array, n: number): Int32Array {
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
