/**
 * code_fim's completion cleanup, NeMo Skills' FIM pipeline as NeMo Gym ports it: the last fenced block (```python
 * preferred), strict (an unclosed block is empty) and NOT stripped (indentation matters); then one leading "\n"
 * dropped and any text the model repeated from the prefix (at its head) or the suffix (at its tail) cut away.
 */
import { pyStrip } from "../_python/text.ts";
import { lastFenceBody } from "../_common/fence.ts";

/** The last ```python (else ```) block's body as it is; "" when never closed. Text before `</think>` is dropped. */
export function extractFimCode(completion: string, language = "python"): string {
  let text = completion.replaceAll("\r", "");
  const think = text.indexOf("</think>");
  if (think !== -1) text = text.slice(think + "</think>".length);
  return lastFenceBody(text, language);
}

/** An overlap of only spaces/tabs (no newline) is never cut: a lone shared space is no repetition. */
const trivial = (overlap: string) => pyStrip(overlap) === "" && !overlap.includes("\n");

/** `following` without its longest head that repeats the tail of `preceding`. */
export function trimRepeatedHead(preceding: string, following: string): string {
  for (let i = Math.min(preceding.length, following.length); i > 0; i--) {
    const overlap = preceding.slice(-i);
    if (!trivial(overlap) && following.startsWith(overlap)) return following.slice(i);
  }
  return following;
}

/** `preceding` without its longest tail that repeats the head of `following`. */
export function trimRepeatedTail(preceding: string, following: string): string {
  for (let i = Math.min(preceding.length, following.length); i > 0; i--) {
    const overlap = following.slice(0, i);
    if (!trivial(overlap) && preceding.endsWith(overlap)) return preceding.slice(0, -i);
  }
  return preceding;
}

/** The string spliced between prefix and suffix. */
export function postprocessCompletion(code: string, prefix: string, suffix: string): string {
  const body = code.startsWith("\n") ? code.slice(1) : code;
  return trimRepeatedTail(trimRepeatedHead(prefix, body), suffix);
}
