/** Serializes a rollout row as NeMo Gym writes it: `reward` is a Python float, so a whole reward prints as `1.0`. */

const TOKEN = "\u0000gym-float-reward\u0000";
const QUOTED_TOKEN = JSON.stringify(TOKEN);

/** One JSONL line for a rollout row (fast path: plain JSON.stringify). */
export function rolloutLine(row: Record<string, unknown>): string {
  const reward = row.reward;
  if (typeof reward === "number" && Number.isInteger(reward)) {
    // The verify response model types reward as float; keep that in the file so pandas/Python read 1.0, not 1.
    return `${JSON.stringify({ ...row, reward: TOKEN }).replace(QUOTED_TOKEN, `${reward}.0`)}\n`;
  }
  return `${JSON.stringify(row)}\n`;
}
