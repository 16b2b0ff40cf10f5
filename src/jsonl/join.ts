/** Joins two row streams on a key: one side is indexed in memory, the other is streamed. */

export interface JoinResult<L, R> {
  key: string;
  left: L;
  right: R;
}

export interface JoinOptions<L, R> {
  /** Called for a streamed row with no indexed partner. */
  onUnmatchedRight?: (row: R, key: string) => void;
  /** Called once per indexed row no streamed row asked for, after the stream ends. */
  onUnmatchedLeft?: (row: L, key: string) => void;
  /** Called when the indexed side has the same key twice (the later row is dropped). */
  onDuplicateLeft?: (row: L, key: string) => void;
}

/**
 * Indexes `left` by `leftKey`, then streams `right`, yielding each right row with its left partner.
 * Memory holds the left side only, so pass the smaller stream (or the one that must be complete) as left.
 */
export async function* joinOnKey<L, R>(
  left: AsyncIterable<L>,
  right: AsyncIterable<R>,
  leftKey: (row: L) => string,
  rightKey: (row: R) => string,
  options: JoinOptions<L, R> = {},
): AsyncGenerator<JoinResult<L, R>> {
  const index = new Map<string, L>();
  for await (const row of left) {
    const key = leftKey(row);
    if (index.has(key)) options.onDuplicateLeft?.(row, key);
    else index.set(key, row);
  }
  const used = new Set<string>();
  for await (const row of right) {
    const key = rightKey(row);
    const partner = index.get(key);
    if (partner === undefined) {
      options.onUnmatchedRight?.(row, key);
      continue;
    }
    used.add(key);
    yield { key, left: partner, right: row };
  }
  if (options.onUnmatchedLeft) for (const [key, row] of index) if (!used.has(key)) options.onUnmatchedLeft(row, key);
}
