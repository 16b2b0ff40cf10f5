/** Python's `random.Random` (MT19937) for the calls langdetect makes: seed(int), random(), gauss(), choice(). */

const N = 624;
const M = 397;

export class PyRandom {
  private mt = new Uint32Array(N);
  private index = N + 1;
  private gaussNext: number | undefined;

  constructor(seed = 0) {
    this.seed(seed);
  }

  /** random.seed(n) for a non-negative integer below 2^32 (init_by_array with one key word). */
  seed(n: number): void {
    this.seedKey([n >>> 0]);
  }

  /** random.seed(n) for any non-negative integer: its 32-bit words, least significant first, as the key. */
  seedBigInt(n: bigint): void {
    const key: number[] = [];
    for (let rest = n < 0n ? -n : n; rest > 0n; rest >>= 32n) key.push(Number(rest & 0xffffffffn));
    this.seedKey(key.length > 0 ? key : [0]);
  }

  /** init_by_array(key). */
  private seedKey(key: number[]): void {
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    const mt = this.mt;
    for (let k = Math.max(N, key.length); k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1664525)) + key[j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = ((mt[i]! ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    this.gaussNext = undefined;
  }

  /** numpy's legacy `np.random.seed(n)` (RandomState/MT19937 `_legacy_seeding` of an integer): init_genrand(n), no key array. */
  seedNumpyLegacy(n: number): void {
    this.initGenrand(n);
    this.gaussNext = undefined;
  }

  /**
   * numpy's legacy `RandomState.randint(0, n)` for one int64 draw: masked rejection on 32-bit words
   * (`random_bounded_uint64_fill` with rng = n − 1 < 2^32; rng 0 draws nothing).
   */
  numpyRandint(n: number): number {
    const rng = n - 1;
    if (rng <= 0) return 0;
    let mask = rng;
    for (const shift of [1, 2, 4, 8, 16]) mask |= mask >>> shift;
    mask >>>= 0;
    for (;;) {
      const value = (this.uint32() & mask) >>> 0;
      if (value <= rng) return value;
    }
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]! ^ (mt[i - 1]! >>> 30);
      mt[i] = (Math.imul(prev, 1812433253) + i) >>> 0;
    }
    this.index = N;
  }

  /** genrand_uint32. */
  uint32(): number {
    const mt = this.mt;
    if (this.index >= N) {
      for (let k = 0; k < N; k++) {
        const y = (mt[k]! & 0x80000000) | (mt[(k + 1) % N]! & 0x7fffffff);
        mt[k] = mt[(k + M) % N]! ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
      }
      this.index = 0;
    }
    let y = mt[this.index++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** random.random(): 53 bits from two draws. */
  random(): number {
    const a = this.uint32() >>> 5;
    const b = this.uint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** random.gauss(mu, sigma): Python's cached pair from one Box–Muller step. */
  gauss(mu = 0, sigma = 1): number {
    let z = this.gaussNext;
    this.gaussNext = undefined;
    if (z === undefined) {
      const x2pi = this.random() * 2 * Math.PI;
      const g2rad = Math.sqrt(-2 * Math.log(1 - this.random()));
      z = Math.cos(x2pi) * g2rad;
      this.gaussNext = Math.sin(x2pi) * g2rad;
    }
    return mu + z * sigma;
  }

  /** random._randbelow(n) via getrandbits (n < 2^32). */
  below(n: number): number {
    const k = 32 - Math.clz32(n);
    let r = k === 0 ? 0 : this.uint32() >>> (32 - k);
    while (r >= n) r = this.uint32() >>> (32 - k);
    return r;
  }

  /** random.choice(seq). */
  choice<T>(seq: readonly T[]): T {
    return seq[this.below(seq.length)]!;
  }
}
