/** evalplus's code extraction: NeMo Skills' last fence in strict mode (```python preferred over a bare fence). */
import { pyStrip } from "../_python/text.ts";
import { lastFenceBody } from "../_common/fence.ts";

/** The last ```python (else ```) block's body, stripped; "" when the block is never closed. */
export function extractCodeStrict(completion: string, language = "python"): string {
  return pyStrip(lastFenceBody(completion.replaceAll("\r", ""), language));
}
