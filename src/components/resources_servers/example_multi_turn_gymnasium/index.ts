/** example_multi_turn_gymnasium: a scripted user (Gymnasium /reset + /step); the last step checks for the expected answer. */
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer } from "../../../servers/resources/index.ts";
import { outputItems } from "../_common/output.ts";

/** All text of a model turn: string message contents and `output_text` parts, joined with no separator. */
export function stepText(response: JsonObject): string {
  let text = "";
  for (const item of outputItems(response)) {
    if (item.type !== "message") continue;
    if (typeof item.content === "string") text += item.content;
    else for (const part of (item.content as JsonObject[]) ?? []) if (part.type === "output_text") text += part.text as string;
  }
  return text;
}

export default defineResourcesServer<Record<string, unknown>, Map<string, number>>({
  name: "example_multi_turn_gymnasium",
  className: "ExampleMultiTurnEnv",
  createState: () => new Map(),
  gymnasium: {
    reset(_metadata, { state, sessionId }) {
      state.set(sessionId, 0);
      return { observation: null, info: {} };
    },
    step(action, metadata, { state, sessionId }) {
      const followUps = (Object.hasOwn(metadata, "follow_ups") ? metadata.follow_ups : []) as unknown[];
      const turn = state.get(sessionId) ?? 0;
      if (turn < followUps.length) {
        state.set(sessionId, turn + 1);
        return { observation: followUps[turn] as string, reward: 0, terminated: false, truncated: false, info: {} };
      }
      const expected = (Object.hasOwn(metadata, "expected_answer") ? metadata.expected_answer : "") as string;
      // Plain case-insensitive substring: "20" is found in "120".
      const reward = expected && stepText(action).toLowerCase().includes(expected.toLowerCase()) ? 1 : 0;
      return { observation: null, reward, terminated: true, truncated: false, info: {} };
    },
  },
});
