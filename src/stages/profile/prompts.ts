/**
 * The prompt of every row of a file, kept to check that a joined rollout answers its input row's prompt
 * (see `protocol/prompt/digest.ts`): per row its item count and digests, taken from the row's bytes.
 * Input rows keep their whole prompt's digest. A rollout's input may hold the turns it played after its
 * input row's items, so it keeps the digests of its prefixes at the item counts the input rows have (one or
 * a few lengths in a run: a number or two per row, however long the conversation).
 */
import { Span, parseSpan } from "../../jsonl/rows.ts";
import { DigestList, digestPromptBytes, NO_PROMPT, PROMPT_FALLBACK } from "../../protocol/prompt/bytes.ts";
import { promptDigest } from "../../protocol/prompt/digest.ts";

type Row = Record<string, unknown>;

/** Distinct input item counts beyond which a rollout keeps the digest of every prefix. */
const MAX_LENGTHS = 16;

export class RowPrompts {
  private items: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private first: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private readonly digests = new DigestList();
  private rows = 0;
  /** Input rows: the distinct item counts seen (null once there are too many). */
  private lengths: Set<number> | null = new Set();
  /** Rollout rows: the prefix lengths kept (ascending; null: every prefix). */
  private readonly keep: number[] | null;
  private readonly scratch = new DigestList();

  /** Input rows (no `inputs`), or rollout rows joined with the rows of `inputs` (read first). */
  constructor(inputs?: RowPrompts) {
    this.forRollouts = inputs !== undefined;
    this.keep = inputs?.lengths ? [...inputs.lengths].sort((a, b) => a - b) : null;
  }

  private readonly forRollouts: boolean;

  /** Adds the prompt of a row read with `responses_create_params.input` as a Span of `bytes`. */
  add(row: Row, bytes: Uint8Array): void {
    if (this.rows === this.items.length) (this.items = grow(this.items)), (this.first = grow(this.first));
    const r = this.rows++;
    const params = row.responses_create_params;
    const input = params !== null && typeof params === "object" ? (params as Row).input : undefined;
    const all = this.scratch;
    all.length = 0;
    let items = input instanceof Span ? digestPromptBytes(bytes, input.start, all) : parsedDigests(input, all);
    if (items === PROMPT_FALLBACK) items = parsedDigests(parseSpan(bytes, input as Span), all);
    this.items[r] = items;
    const list = this.digests;
    this.first[r] = list.length;
    if (items === NO_PROMPT) return;
    // A string prompt has one digest; a list has one per prefix, the whole prompt's last.
    if (items < 0) return list.push(all.values[0]!);
    if (!this.forRollouts) {
      if (this.lengths && this.lengths.add(items).size > MAX_LENGTHS) this.lengths = null;
      return list.push(all.values[items]!);
    }
    const keep = this.keep;
    if (keep === null) for (let n = 0; n <= items; n++) list.push(all.values[n]!);
    else for (let k = 0; k < keep.length; k++) list.push(keep[k]! <= items ? all.values[keep[k]!]! : NaN);
  }

  /**
   * Whether rollout row `r` (of `this`) answers input row `i` of `inputs`: the same prompt, or the input's
   * items first. A row without a prompt answers any.
   */
  answers(r: number, inputs: RowPrompts, i: number): boolean {
    const n = inputs.items[i]!;
    const m = this.items[r]!;
    if (n === NO_PROMPT || m === NO_PROMPT) return true;
    const want = inputs.digests.values[inputs.first[i]!]!;
    if (n < 0 || m < 0) return n === m && this.digests.values[this.first[r]!] === want;
    if (n > m) return false;
    const at = this.keep === null ? n : this.keep.indexOf(n);
    return at >= 0 && this.digests.values[this.first[r]! + at] === want;
  }
}

/** What the byte walk left over: the parsed value's digests (the same ones), into `out`. */
function parsedDigests(value: unknown, out: DigestList): number {
  if (value === null || value === undefined) return NO_PROMPT;
  if (!Array.isArray(value)) return out.push(promptDigest(value)!), -1;
  for (let n = 0; n <= value.length; n++) out.push(promptDigest(value, n)!);
  return value.length;
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
