/**
 * Rollout identities for health-check's duplicate and missing-rollout checks without a string per row:
 * `"task:rollout"` as NeMo Gym's tooling spells it, held as one number when both parts are small
 * non-negative integers (a typed-array hash table), as the string otherwise.
 */

const ROLLOUTS = 2 ** 20;
const TASKS = 2 ** 32;
const CANONICAL = /^(0|[1-9][0-9]{0,9}):(0|[1-9][0-9]{0,6})$/;

/** The identity of a row: a number for `"3:0"`-like keys, else the key string (`${task ?? 0}:${rollout ?? 0}`). */
export function identity(task: unknown, rollout: unknown): number | string {
  const t = task ?? 0;
  const r = rollout ?? 0;
  if (typeof t === "number" && typeof r === "number" && Number.isInteger(t) && Number.isInteger(r) && t >= 0 && r >= 0 && t < TASKS && r < ROLLOUTS) return t * ROLLOUTS + r;
  const key = `${t}:${r}`;
  // "3:0" from a string index equals the key of the number 3: keep them one identity.
  const m = CANONICAL.exec(key);
  if (m && Number(m[1]) < TASKS && Number(m[2]) < ROLLOUTS) return Number(m[1]) * ROLLOUTS + Number(m[2]);
  return key;
}

/** Past this many slots (tasks × rollout width) the dense table stops growing; further identities go to the hash. */
const DENSE_LIMIT = 1 << 23;

/**
 * A map from identities to non-negative numbers (e.g. where a row was first seen). Small task indices go
 * to a dense table (task × rollout slots, 8 bytes each: ~64 bytes a task), the rest to a typed-array hash
 * (~32 bytes an identity) or, for string identities, a Map. Held memory is what limits a streaming
 * check's peak: the JS engine lets garbage grow in proportion to it.
 */
export class IdentityMap {
  private dense = new Float64Array(0); // value + 1; 0 = absent
  private width = 8;
  private tasks = 0;
  private keys = new Float64Array(1 << 10).fill(-1);
  private values = new Float64Array(1 << 10);
  private size = 0;
  private readonly strings = new Map<string, number>();

  get(id: number | string): number | undefined {
    if (typeof id === "string") return this.strings.get(id);
    const t = Math.floor(id / ROLLOUTS);
    const r = id - t * ROLLOUTS;
    if (t < this.tasks && r < this.width) {
      const v = this.dense[t * this.width + r]!;
      if (v !== 0) return v - 1;
    }
    const slot = this.find(id);
    return this.keys[slot] === id ? this.values[slot] : undefined;
  }

  has(id: number | string): boolean {
    return this.get(id) !== undefined;
  }

  /** Sets a value (≥ 0) for an identity not yet present. */
  add(id: number | string, value: number): void {
    if (typeof id === "string") {
      this.strings.set(id, value);
      return;
    }
    const t = Math.floor(id / ROLLOUTS);
    const r = id - t * ROLLOUTS;
    if (this.fitsDense(t, r)) {
      this.dense[t * this.width + r] = value + 1;
      return;
    }
    if ((this.size + 1) * 2 > this.keys.length) this.grow();
    const slot = this.find(id);
    if (this.keys[slot] !== id) this.size++;
    this.keys[slot] = id;
    this.values[slot] = value;
  }

  /** Makes the dense table cover (t, r) when that stays within its limit. */
  private fitsDense(t: number, r: number): boolean {
    if (t < this.tasks && r < this.width) return true;
    let width = this.width;
    while (r >= width && width < 64) width *= 2;
    if (r >= width) return false;
    let tasks = Math.max(this.tasks, 1024);
    while (t >= tasks) tasks *= 2;
    if (tasks * width > DENSE_LIMIT) return false;
    const dense = new Float64Array(tasks * width);
    for (let i = 0; i < this.tasks; i++) dense.set(this.dense.subarray(i * this.width, (i + 1) * this.width), i * width);
    this.dense = dense;
    this.width = width;
    this.tasks = tasks;
    return true;
  }

  private find(id: number): number {
    const mask = this.keys.length - 1;
    let h = (id >>> 0) ^ Math.imul(Math.floor(id / 4294967296), 0x27d4eb2f);
    // murmur3's finalizer: every input bit reaches the low bits the mask keeps.
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h = (h ^ (h >>> 16)) >>> 0;
    for (;;) {
      const slot = h & mask;
      const k = this.keys[slot]!;
      if (k === id || k === -1) return slot;
      h = (h + 1) >>> 0;
    }
  }

  private grow(): void {
    const keys = this.keys;
    const values = this.values;
    this.keys = new Float64Array(keys.length * 2).fill(-1);
    this.values = new Float64Array(keys.length * 2);
    this.size = 0;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === -1) continue;
      const slot = this.find(keys[i]!);
      this.keys[slot] = keys[i]!;
      this.values[slot] = values[i]!;
      this.size++;
    }
  }
}
