import { expect, test } from "bun:test";
import { identity, IdentityMap } from "./keys.ts";

test("identities equal exactly when NeMo Gym's `task:rollout` strings are equal", () => {
  const values: unknown[] = [0, 1, 3, -0, 1.5, -2, 2 ** 32, 2 ** 20, 1e21, "3", "03", "x", true, null, undefined, { a: 1 }];
  const text = (v: unknown) => `${v ?? 0}`;
  for (const t of values) for (const r of values) for (const t2 of values) for (const r2 of [0, 3, "3", null]) {
    const same = `${text(t)}:${text(r)}` === `${text(t2)}:${text(r2)}`;
    expect(identity(t, r) === identity(t2, r2)).toBe(same);
  }
});

test("the identity map holds a million numeric identities and string ones beside them", () => {
  const map = new IdentityMap();
  for (let t = 0; t < 125_000; t++) for (let r = 0; r < 8; r++) map.add(identity(t, r), t * 8 + r);
  map.add(identity("x", 0), -5);
  expect(map.get(identity(124_999, 7))).toBe(999_999);
  expect(map.get(identity("7", "1"))).toBe(57);
  expect(map.get(identity("x", null))).toBe(-5);
  expect(map.has(identity(125_000, 0))).toBe(false);
  expect(map.has(identity(0, 8))).toBe(false);
});

test("identities beyond the dense table (wide rollouts, huge tasks) land in the hash, values intact", () => {
  const map = new IdentityMap();
  const ids: Array<[number | string, number]> = [];
  for (let t = 0; t < 3000; t++) for (const r of [0, 1, 7, 8, 63, 64, 1000]) ids.push([identity(t, r), t * 10 + (r % 10)]);
  for (const t of [2 ** 31, 2 ** 32 - 1, 123_456_789]) ids.push([identity(t, 3), t % 97]);
  ids.push([identity("a", "b"), 0]);
  for (const [id, v] of ids) map.add(id, v);
  for (const [id, v] of ids) expect(map.get(id)).toBe(v);
  expect(map.has(identity(2999, 2))).toBe(false);
  expect(map.has(identity(3000, 0))).toBe(false);
});
