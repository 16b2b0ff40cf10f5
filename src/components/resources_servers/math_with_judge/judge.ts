/**
 * math_with_judge's equality judge (NeMo Gym's Arena-Hard-style messages): asked whether the two answers are
 * equivalent, `[[A=B]]` / `[[A!=B]]`, a second time with the answers swapped; reward 1 only if both say equal.
 * The first label in the judge's last output text decides; anything else is "not equal".
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import type { Judge, JudgeExchange } from "../_judge/index.ts";

export const JUDGE_SYSTEM_MESSAGE = `Please act as an impartial judge and evaluate the equivalence of the solutions given by two AI assistants to the mathematical problem displayed below. You will be given AI assistant A's answer and AI assistant B's answer. Your job is to evaluate whether assistant A's answer is equivalent to assistant B's answer.

Consider the mathematical equivalence of the AI assistants' answers above all other considerations. If the problem requests special formatting instructions, you may disregard any formatting considerations when evaluating the answers -- consider only mathematical equivalence.

After evaluating both answers for equivalence, you must output only one of the following choices as your final verdict with a label:

1.  The AI assistants' answers are equivalent: [[A=B]]
2.  The AI assistants' answers are different: [[A!=B]]

Example output: "My final verdict is different [[A!=B]]".`;

export function judgePrompt(question: string, first: string, second: string): string {
  return `<|Problem|>\n${question}\n\n<|Start of Assistant A's Answer|>\n${first}\n<|End of Assistant A's Answer|>\n\n<|Start of Assistant B's Answer|>\n${second}\n<|End of Assistant B's Answer|>`;
}

/** The verdict of one judge answer: its last output item must be a message whose last part is output_text. */
export function judgeSaysEqual(response: JsonObject): boolean {
  const output = response.output as JsonObject[] | undefined;
  const last = output?.[output.length - 1];
  if (!last || last.type !== "message") return false;
  const content = last.content as JsonObject[] | undefined;
  const part = content?.[content.length - 1];
  if (!part || part.type !== "output_text") return false;
  const text = String(part.text);
  const equal = text.indexOf("[[A=B]]");
  const notEqual = text.indexOf("[[A!=B]]");
  return equal >= 0 && (notEqual < 0 || equal < notEqual);
}

async function evaluation(judge: Judge, question: string, first: string, second: string): Promise<[boolean, JudgeExchange]> {
  const exchange = await judge.responses([
    { role: "system", content: JUDGE_SYSTEM_MESSAGE },
    { role: "user", content: judgePrompt(question, first, second) },
  ]);
  return [judgeSaysEqual(exchange.response), exchange];
}

/** _verify_answer_with_judge: [reward, judge_evaluations]. */
export async function judgeEquality(judge: Judge, question: string, expected: string, generated: string): Promise<[number, JudgeExchange[]]> {
  const [firstEqual, first] = await evaluation(judge, question, expected, generated);
  if (!firstEqual) return [0, [first]];
  const [secondEqual, second] = await evaluation(judge, question, generated, expected);
  return [secondEqual ? 1 : 0, [first, second]];
}
