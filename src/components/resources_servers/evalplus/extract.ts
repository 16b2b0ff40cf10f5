/** evalplus's code extraction: NeMo Skills' last fence in strict mode (```python preferred over a bare fence). */
import { pyStrip } from "../_python/text.ts";

/** The last ```python (else ```) block's body, stripped; "" when the block is never closed. */
export function extractCodeStrict(completion: string, language = "python"): string {
  const text = completion.replaceAll("\r", "");
  const specific = "```" + language;
  let start = text.lastIndexOf(specific);
  let fenceLength = specific.length;
  if (start === -1) {
    start = text.lastIndexOf("```");
    fenceLength = 3;
  }
  if (start === -1) return "";
  const rest = text.slice(start + fenceLength);
  const end = rest.indexOf("```");
  return end === -1 ? "" : pyStrip(rest.slice(0, end));
}
