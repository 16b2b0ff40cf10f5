/** Python's difflib.SequenceMatcher ratio and get_close_matches, reproduced exactly (autojunk included). */

type Seq = string | readonly string[];

interface Match {
  a: number;
  b: number;
  size: number;
}

/** Indexes b the way SequenceMatcher.__chain_b does: element → positions, minus "popular" ones. */
function indexB(b: Seq, autojunk: boolean): Map<string, number[]> {
  const b2j = new Map<string, number[]>();
  for (let i = 0; i < b.length; i++) {
    const elt = b[i]!;
    const list = b2j.get(elt);
    if (list) list.push(i);
    else b2j.set(elt, [i]);
  }
  const n = b.length;
  if (autojunk && n >= 200) {
    const ntest = Math.floor(n / 100) + 1;
    for (const [elt, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(elt);
  }
  return b2j;
}

function longestMatch(a: Seq, b: Seq, b2j: Map<string, number[]>, alo: number, ahi: number, blo: number, bhi: number): Match {
  let besti = alo;
  let bestj = blo;
  let bestsize = 0;
  let j2len = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const newj2len = new Map<number, number>();
    for (const j of b2j.get(a[i]!) ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (j2len.get(j - 1) ?? 0) + 1;
      newj2len.set(j, k);
      if (k > bestsize) {
        besti = i - k + 1;
        bestj = j - k + 1;
        bestsize = k;
      }
    }
    j2len = newj2len;
  }
  // isjunk is None, so CPython's extension loops reduce to "extend while equal"; popular elements
  // are not junk there, so a match may grow across them (this is what makes autojunk's result).
  while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
    besti--;
    bestj--;
    bestsize++;
  }
  while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) {
    bestsize++;
  }
  return { a: besti, b: bestj, size: bestsize };
}

/** Total size of SequenceMatcher(None, a, b, autojunk).get_matching_blocks(). */
export function matchingCharacters(a: Seq, b: Seq, autojunk = true): number {
  const b2j = indexB(b, autojunk);
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  let total = 0;
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const m = longestMatch(a, b, b2j, alo, ahi, blo, bhi);
    if (m.size === 0) continue;
    total += m.size;
    if (alo < m.a && blo < m.b) queue.push([alo, m.a, blo, m.b]);
    if (m.a + m.size < ahi && m.b + m.size < bhi) queue.push([m.a + m.size, ahi, m.b + m.size, bhi]);
  }
  return total;
}

/** SequenceMatcher(None, a, b, autojunk).find_longest_match(0, len(a), 0, len(b)).size. */
export function longestMatchSize(a: Seq, b: Seq, autojunk = true): number {
  return longestMatch(a, b, indexB(b, autojunk), 0, a.length, 0, b.length).size;
}

/** SequenceMatcher(None, a, b).ratio(): 2*M/T, 1.0 when both are empty. */
export function sequenceRatio(a: Seq, b: Seq, autojunk = true): number {
  const t = a.length + b.length;
  return t === 0 ? 1 : (2 * matchingCharacters(a, b, autojunk)) / t;
}

function quickRatio(a: string, b: string): number {
  const avail = new Map<string, number>();
  for (const ch of b) avail.set(ch, (avail.get(ch) ?? 0) + 1);
  let matches = 0;
  for (const ch of a) {
    const n = avail.get(ch) ?? 0;
    if (n > 0) matches++;
    avail.set(ch, n - 1);
  }
  const t = a.length + b.length;
  return t === 0 ? 1 : (2 * matches) / t;
}

/** difflib.get_close_matches(word, possibilities, n, cutoff): best first, ties by reverse string order. */
export function closeMatches(word: string, possibilities: Iterable<string>, n = 3, cutoff = 0.6): string[] {
  const scored: [number, string][] = [];
  for (const x of possibilities) {
    const t = x.length + word.length;
    const realQuick = t === 0 ? 1 : (2 * Math.min(x.length, word.length)) / t;
    if (realQuick >= cutoff && quickRatio(x, word) >= cutoff) {
      const r = sequenceRatio(x, word);
      if (r >= cutoff) scored.push([r, x]);
    }
  }
  // heapq.nlargest on (score, x) tuples: higher score first, then the larger string.
  scored.sort((p, q) => q[0] - p[0] || (q[1] > p[1] ? 1 : q[1] < p[1] ? -1 : 0));
  return scored.slice(0, n).map(([, x]) => x);
}
