import { expect, test } from "bun:test";
import { dumpInputItem } from "../responses-dump.ts";
import { answersPrompt, promptDigest, promptOf } from "./digest.ts";

test("a prompt and the agent's dump of it have one digest; another text, role or item kind has another", () => {
  const raw = [{ role: "user", content: "What is 2+2?" }, { role: "assistant", content: [{ type: "output_text", text: "4" }] }];
  const dumped = raw.map((item) => dumpInputItem(item as never));
  expect(promptDigest(dumped)).toBe(promptDigest(raw)!);
  expect(promptDigest([{ role: "user", content: "What is 2+3?" }, raw[1]])).not.toBe(promptDigest(raw)!);
  expect(promptDigest([{ role: "system", content: "What is 2+2?" }, raw[1]])).not.toBe(promptDigest(raw)!);
  expect(promptDigest("What is 2+2?")).not.toBe(promptDigest([{ role: "user", content: "What is 2+2?" }])!);
  expect(promptDigest(undefined)).toBeUndefined();
});

test("a rollout whose input holds its input row's items first (a multi-turn environment's turns after them) answers that row", () => {
  const asked = [{ role: "system", content: "Play." }, { role: "user", content: "Deal me in." }];
  const played = [...asked.map((item) => dumpInputItem(item as never)), { role: "user", content: "Your hand: 13" }];
  expect(answersPrompt(promptOf(asked)!, played)).toBe(true);
  expect(answersPrompt(promptOf(asked)!, asked)).toBe(true);
  expect(answersPrompt(promptOf(played)!, asked)).toBe(false);
  expect(answersPrompt(promptOf([{ role: "user", content: "Deal me out." }])!, played)).toBe(false);
  expect(answersPrompt(promptOf("Deal me in.")!, "Deal me in.")).toBe(true);
  expect(answersPrompt(promptOf("Deal me in.")!, [{ role: "user", content: "Deal me in." }])).toBe(false);
});
