/** The arithmetic regimes NeMo Gym's numbers come from: numpy pairwise sums, CPython's sum, Python round, exact binomials. */

/** A Python value in a pass@k style computation: a JS number is a Python float, a bigint a Python int. */
export type PyScalar = number | bigint;

/**
 * numpy's pairwise summation (`np.sum` / pandas `mean`/`std` without bottleneck): under 8 items a plain
 * loop from 0.0; up to 128 items eight interleaved accumulators; above that, split at an 8-aligned half.
 */
export function pairwiseSum(a: ArrayLike<number>, start = 0, end = a.length): number {
  const n = end - start;
  if (n < 8) {
    let res = 0;
    for (let i = start; i < end; i++) res += a[i]!;
    return res;
  }
  if (n <= 128) {
    let r0 = a[start]!, r1 = a[start + 1]!, r2 = a[start + 2]!, r3 = a[start + 3]!;
    let r4 = a[start + 4]!, r5 = a[start + 5]!, r6 = a[start + 6]!, r7 = a[start + 7]!;
    const blockEnd = start + (n - (n % 8));
    let i = start + 8;
    for (; i < blockEnd; i += 8) {
      r0 += a[i]!; r1 += a[i + 1]!; r2 += a[i + 2]!; r3 += a[i + 3]!;
      r4 += a[i + 4]!; r5 += a[i + 5]!; r6 += a[i + 6]!; r7 += a[i + 7]!;
    }
    let res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
    for (; i < end; i++) res += a[i]!;
    return res;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseSum(a, start, start + half) + pairwiseSum(a, start + half, end);
}

const SAFE = 2n ** 53n;

/**
 * CPython ≥ 3.12 built-in `sum` from the int 0: ints (bigint) add exactly; at the first float the total
 * becomes float(acc) + x; later floats add with Neumaier compensation, later ints without it.
 */
export function pySum(items: Iterable<PyScalar>): PyScalar {
  let acc: bigint = 0n;
  let inFloat = false;
  let f = 0;
  let c = 0;
  for (const x of items) {
    if (!inFloat) {
      if (typeof x === "bigint") {
        acc += x;
        continue;
      }
      f = bigToNumber(acc) + x;
      inFloat = true;
      continue;
    }
    if (typeof x === "bigint") {
      f += bigToNumber(x);
      continue;
    }
    const t = f + x;
    if (Math.abs(f) >= Math.abs(x)) c += (f - t) + x;
    else c += (x - t) + f;
    f = t;
  }
  if (!inFloat) return acc;
  if (c !== 0 && Number.isFinite(c)) f += c;
  return f;
}

function bigToNumber(x: bigint): number {
  // Number(bigint) rounds to nearest, ties to even: the same as Python's int → float.
  return Number(x);
}

/** Python `a / b` for any mix of ints (bigint) and floats: int/int is correctly rounded even past 2^53. */
export function pyDiv(a: PyScalar, b: PyScalar): number {
  if (typeof a === "bigint" && typeof b === "bigint") return bigRatio(a, b);
  return Number(a) / Number(b);
}

/** Python `float(x)`. */
export function toFloat(x: PyScalar): number {
  return typeof x === "bigint" ? Number(x) : x;
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** The correctly rounded double nearest a/b for integers (Python int / int). */
export function bigRatio(a: bigint, b: bigint): number {
  if (b === 0n) throw new RangeError("division by zero");
  const negative = (a < 0n) !== (b < 0n);
  let x = a < 0n ? -a : a;
  const y = b < 0n ? -b : b;
  if (x < SAFE && y < SAFE) return (negative ? -1 : 1) * (Number(x) / Number(y));
  // Scale so the quotient carries ≥ 55 bits, then fold the remainder into a sticky bit: the final
  // bigint → double conversion then rounds half-even exactly as the true quotient would.
  const shift = Math.max(0, 55 + bitLength(y) - bitLength(x));
  x <<= BigInt(shift);
  let q = x / y;
  if (x % y !== 0n) q |= 1n;
  const value = Number(q) / 2 ** shift;
  return negative ? -value : value;
}

/** Python math.comb(n, k) as an exact bigint. */
export function comb(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  const kk = Math.min(k, n - k);
  let r = 1n;
  for (let i = 1; i <= kk; i++) r = (r * BigInt(n - kk + i)) / BigInt(i);
  return r;
}

/**
 * Python `round(x, digits)`: the exact binary value rounded to `digits` decimals, ties to even, then the
 * nearest double. (`toFixed` rounds ties away from zero, so exact ties are detected and fixed here.)
 */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21 || digits > 100) return x;
  const fixed = Math.abs(x).toFixed(digits);
  let text = fixed;
  if (isExactTie(Math.abs(x), digits)) {
    const scaled = BigInt(fixed.replace(".", ""));
    if (scaled % 2n === 1n) {
      const down = (scaled - 1n).toString().padStart(digits + 1, "0");
      text = digits > 0 ? `${down.slice(0, -digits)}.${down.slice(-digits)}` : down;
    }
  }
  const result = Number(text);
  return x < 0 || Object.is(x, -0) ? -result : result;
}

/** Whether x·10^d lies exactly halfway between two integers (x = M·2^E with E = −(d+1) and M odd). */
function isExactTie(x: number, d: number): boolean {
  if (x === 0 || Number.isInteger(x)) return false;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let e = expBits === 0 ? -1074 : expBits - 1075;
  if (expBits !== 0) mant |= 1n << 52n;
  while (mant % 2n === 0n) {
    mant /= 2n;
    e++;
  }
  return e === -(d + 1);
}

/** Median as numpy computes it: the middle value, or (a + b) / 2 of the two middle values. */
export function median(sorted: ArrayLike<number>): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** numpy "linear" percentile (q in [0, 1]) of sorted values, with numpy's two-sided lerp. */
export function percentileLinear(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const position = q * (n - 1);
  const lo = Math.floor(position);
  const g = position - lo;
  const a = sorted[lo]!;
  const b = sorted[Math.min(lo + 1, n - 1)]!;
  const diff = b - a;
  return g >= 0.5 ? b - diff * (1 - g) : a + diff * g;
}

/** Sample mean and variance (ddof 1) with numpy pairwise sums: mean first, then Σ(mean − x)². */
export function meanVariance(values: ArrayLike<number>): { mean: number; variance: number } {
  const n = values.length;
  const mean = pairwiseSum(values) / n;
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const d = mean - values[i]!;
    sq[i] = d * d;
  }
  return { mean, variance: n > 1 ? pairwiseSum(sq) / (n - 1) : NaN };
}
