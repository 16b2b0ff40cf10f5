import { expect, test } from "bun:test";
import { DigestList, digestPromptBytes, NO_PROMPT, PROMPT_FALLBACK } from "./bytes.ts";
import { promptDigest } from "./digest.ts";

const encoder = new TextEncoder();

/** The byte walk's digests of a JSON text, or the fallback / no-prompt code. */
function walk(json: string): { items: number; digests: number[] } {
  const list = new DigestList();
  const items = digestPromptBytes(encoder.encode(json), 0, list);
  return { items, digests: Array.from(list.values.subarray(0, list.length)) };
}

const PROMPTS = [
  `[{"role":"user","content":"What is 2+2?"}]`,
  `[{"content":"What is 2+2?","role":"user","type":"message"}]`,
  `[ {"role" : "user", "content" : "caf\\u00e9 \\ud83d\\ude00 \\"q\\" \\n\\t\\\\ \\/"} ]`,
  `[{"role":"user","content":"café 😀 \\"q\\" \\n\\t\\\\ /"}]`,
  `[{"role":"system","content":"中文 数学 ≤ ∑"},{"role":"assistant","content":[{"type":"output_text","text":"4","annotations":[]},{"type":"input_image","image_url":"http://x/y.png"},{"type":"refusal"},"str",null]}]`,
  `[{"type":"function_call","name":"f","arguments":"{\\"x\\":1}","call_id":"c1","id":"fc_1","status":"completed"},{"type":"function_call_output","call_id":"c1","output":"42"}]`,
  `[{"role":"user","content":"first","content":"last","type":"message","type":"message"}]`,
  `[{"role":"user","content":"x","extra":{"nested":[1,2,{"a":NaN}],"n":-1.5e3,"t":true,"f":false,"z":null}}]`,
  `[{"role":5,"content":{"not":"a list"},"name":null}]`,
  `[{"type":"m\\u0065ssage","role":"user","content":"hi"}]`,
  `[]`,
  `"a plain string prompt \\u00e9"`,
];

test("the byte walk gives promptDigest's digests of every prefix, whatever the spelling", () => {
  for (const json of PROMPTS) {
    const value = JSON.parse(json.replace("NaN", "null"));
    const { items, digests } = walk(json);
    if (Array.isArray(value)) {
      expect(items).toBe(value.length);
      expect(digests).toEqual(Array.from({ length: value.length + 1 }, (_, n) => promptDigest(value, n)!));
    } else {
      expect(items).toBe(-1);
      expect(digests).toEqual([promptDigest(value)!]);
    }
  }
  // Escaped and plain spellings of one prompt, and a dump with another key order, digest alike.
  expect(walk(PROMPTS[2]!).digests).toEqual(walk(PROMPTS[3]!).digests);
  expect(walk(PROMPTS[0]!).digests).toEqual(walk(PROMPTS[1]!).digests);
  expect(walk(`[{"role":"user","content":"What is 2+3?"}]`).digests.at(-1)).not.toBe(walk(PROMPTS[0]!).digests.at(-1));
});

test("what the walk does not cover is left to promptDigest; null is no prompt", () => {
  expect(walk(`null`).items).toBe(NO_PROMPT);
  expect(walk(`[1, {"role":"user"}]`).items).toBe(PROMPT_FALLBACK);
  expect(walk(`[{"r\\u006fle":"user"}]`).items).toBe(PROMPT_FALLBACK);
  expect(walk(`{"input":"x"}`).items).toBe(PROMPT_FALLBACK);
  expect(walk(`[{"role":"user"}, 1]`).digests).toEqual([]);
});
