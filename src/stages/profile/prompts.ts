/**
 * The prompt of every row of a file, kept to check that a joined rollout answers its input row's prompt
 * (see `protocol/prompt/digest.ts`): per row its item count and digests, taken from the row's bytes.
 */
import { Span, parseSpan } from "../../jsonl/rows.ts";
import { DigestList, digestPromptBytes, NO_PROMPT, PROMPT_FALLBACK } from "../../protocol/prompt/bytes.ts";
import { promptDigest } from "../../protocol/prompt/digest.ts";

type Row = Record<string, unknown>;

export class RowPrompts {
  private items: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private first: Int32Array<ArrayBuffer> = new Int32Array(1024);
  private readonly digests = new DigestList();
  private rows = 0;

  /**
   * `prefixes`: keep the digest of every prefix of a list prompt (a rollout, whose input may hold the turns
   * it played after its input row's items); else only the whole prompt's (an input row).
   */
  constructor(private readonly prefixes: boolean) {}

  /** Adds the prompt of a row read with `responses_create_params.input` as a Span of `bytes`. */
  add(row: Row, bytes: Uint8Array): void {
    if (this.rows === this.items.length) (this.items = grow(this.items)), (this.first = grow(this.first));
    const r = this.rows++;
    const list = this.digests;
    const params = row.responses_create_params;
    const input = params !== null && typeof params === "object" ? (params as Row).input : undefined;
    this.first[r] = list.length;
    if (!(input instanceof Span)) return void (this.items[r] = this.parsed(input));
    let items = digestPromptBytes(bytes, input.start, list);
    if (items === PROMPT_FALLBACK) items = this.parsed(parseSpan(bytes, input));
    else if (items >= 0 && !this.prefixes) {
      // Only the whole prompt's digest is kept: it is the last of the prefixes'.
      list.values[this.first[r]!] = list.values[list.length - 1]!;
      list.length = this.first[r]! + 1;
    }
    this.items[r] = items;
  }

  /** What the byte walk left over: the parsed value's digests (the same ones). */
  private parsed(value: unknown): number {
    const list = this.digests;
    if (value === null || value === undefined) return NO_PROMPT;
    if (!Array.isArray(value)) return list.push(promptDigest(value)!), -1;
    if (!this.prefixes) return list.push(promptDigest(value)!), value.length;
    for (let n = 0; n <= value.length; n++) list.push(promptDigest(value, n)!);
    return value.length;
  }

  /**
   * Whether rollout row `r` (of `this`, kept with prefixes) answers input row `i` of `inputs`: the same
   * prompt, or the input's items first. A row without a prompt answers any.
   */
  answers(r: number, inputs: RowPrompts, i: number): boolean {
    const n = inputs.items[i]!;
    const m = this.items[r]!;
    if (n === NO_PROMPT || m === NO_PROMPT) return true;
    const want = inputs.digests.values[inputs.first[i]!]!;
    if (n < 0 || m < 0) return n === m && this.digests.values[this.first[r]!] === want;
    return n <= m && this.digests.values[this.first[r]! + n] === want;
  }
}

function grow(a: Int32Array): Int32Array<ArrayBuffer> {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
