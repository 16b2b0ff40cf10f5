/**
 * tiktoken's byte-pair encoding, counting only: a text split by the encoding's regex, each piece's UTF-8 bytes merged
 * lowest rank first (leftmost on ties) as tiktoken's `_byte_pair_merge` does. Ranks are keyed by byte strings (one
 * char per byte), which keeps long non-ASCII pieces cheap (js-tiktoken's own encoder keys by joined numbers).
 */

/** An encoding table as js-tiktoken ships it: the split regex and the ranks, `! <first rank> <base64 token>…` per line. */
export interface RankTable {
  pat_str: string;
  bpe_ranks: string;
}

const encoder = new TextEncoder();

/** The UTF-8 bytes of a piece as a byte string. */
function byteString(piece: string): string {
  // ASCII is its own UTF-8.
  if (/^[\x00-\x7f]*$/.test(piece)) return piece;
  const bytes = encoder.encode(piece);
  let out = "";
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

export class BytePairCounter {
  private readonly ranks = new Map<string, number>();
  private readonly split: RegExp;

  constructor(table: RankTable) {
    for (const line of table.bpe_ranks.split("\n")) {
      if (line === "") continue;
      const [, first, ...tokens] = line.split(" ");
      let rank = Number.parseInt(first!, 10);
      for (const token of tokens) this.ranks.set(atob(token), rank++);
    }
    this.split = new RegExp(table.pat_str, "gu");
  }

  /** The number of tokens of `text`, special-token text counted as ordinary text. */
  count(text: string): number {
    let total = 0;
    for (const match of text.matchAll(this.split)) {
      const piece = byteString(match[0]);
      total += this.ranks.has(piece) ? 1 : this.mergedLength(piece);
    }
    return total;
  }

  /** How many tokens one piece's bytes merge into. */
  private mergedLength(piece: string): number {
    if (piece.length === 1) return 1;
    const starts: number[] = [];
    const pairRanks: number[] = [];
    for (let i = 0; i <= piece.length; i++) starts.push(i);
    const rankAt = (i: number) => (i + 2 < starts.length ? (this.ranks.get(piece.slice(starts[i]!, starts[i + 2]!)) ?? Infinity) : Infinity);
    for (let i = 0; i < starts.length; i++) pairRanks.push(rankAt(i));
    while (starts.length > 2) {
      let best = Infinity;
      let at = -1;
      for (let i = 0; i < starts.length - 2; i++) {
        if (pairRanks[i]! < best) {
          best = pairRanks[i]!;
          at = i;
        }
      }
      if (at < 0) break;
      starts.splice(at + 1, 1);
      pairRanks.splice(at + 1, 1);
      pairRanks[at] = rankAt(at);
      if (at > 0) pairRanks[at - 1] = rankAt(at - 1);
    }
    return starts.length - 1;
  }
}
