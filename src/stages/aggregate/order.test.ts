import { describe, expect, test } from "bun:test";
import { mergeSortedOrder, sortedOrder } from "./order.ts";

/** Keys made by `key(i)` for n rows; the counting sort must give exactly the merge sort's order. */
function agrees(n: number, key: (i: number) => [number, number]): void {
  const task = new Float64Array(n);
  const rollout = new Float64Array(n);
  for (let i = 0; i < n; i++) [task[i], rollout[i]] = key(i);
  expect(Array.from(sortedOrder(task, rollout, n))).toEqual(Array.from(mergeSortedOrder(task, rollout, n)));
}

describe("sortedOrder's counting sort gives the merge sort's (task, rollout) order, ties in read order", () => {
  let seed = 7;
  const rand = (m: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % m);
  test("repeat-major and task-major files, shuffled rows, duplicates", () => {
    agrees(4000, (i) => [i % 500, Math.floor(i / 500)]);
    agrees(4000, (i) => [Math.floor(i / 8), i % 8]);
    agrees(3000, () => [rand(300), rand(10)]);
    agrees(3000, () => [rand(50), rand(3)]);
    agrees(1, () => [0, 0]);
    agrees(0, () => [0, 0]);
  });
  test("sparse, huge or negative zero task numbers, and one big unordered task", () => {
    agrees(1000, (i) => [i * 1_000_003, i % 4]);
    agrees(100, (i) => [i % 2 ? -0 : 0, 100 - i]);
    agrees(2000, (i) => [i % 3, rand(1000)]);
    agrees(50, (i) => [i === 7 ? Number.MAX_SAFE_INTEGER : i, 0]);
  });
});
