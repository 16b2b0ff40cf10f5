/**
 * (task, rollout) order of a profile's rows, whose keys are checked indices (non-negative whole numbers):
 * a counting sort by task, which leaves each task's rows in read order — already rollout order in the files
 * a run writes (repeat-major or task-major) — then a stable insertion sort of any task whose rows are not.
 * Two passes instead of a merge sort's log2(runs); sparse task numbers or many unordered tasks take the
 * general merge sort, which gives the same order (stable, ties in read order).
 */
import { sortedOrder } from "../aggregate/order.ts";

export function keyOrder(task: Float64Array, rollout: Float64Array, n: number): Int32Array {
  let max = 0;
  for (let i = 0; i < n; i++) {
    const t = task[i]!;
    if (!(t >= 0 && t === Math.floor(t))) return sortedOrder(task, rollout, n);
    if (t > max) max = t;
  }
  if (n === 0 || max > 4 * n + 1024) return sortedOrder(task, rollout, n);
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
    if (k > 256 || (work += k * k) > 16 * n + 65536) return sortedOrder(task, rollout, n);
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
