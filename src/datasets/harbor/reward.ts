/**
 * Reading a verifier's reward (spec harbor-atif §1.5, Gym's order): reward.json first (a flat object of finite
 * numbers), then reward.txt (one number → {"reward": v}). The scalar is the `reward` key, else the only key.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export type RewardRead = { ok: true; reward: number; rewards: Record<string, number> } | { ok: false; kind: "harbor:missing_reward" | "harbor:invalid_reward"; reason: string };

export function readReward(verifierDir: string): RewardRead {
  const json = join(verifierDir, "reward.json");
  const txt = join(verifierDir, "reward.txt");
  const invalid = (reason: string): RewardRead => ({ ok: false, kind: "harbor:invalid_reward", reason });
  let rewards: Record<string, number>;
  if (existsSync(json)) {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(json, "utf8"));
    } catch {
      return invalid("reward.json is not valid JSON");
    }
    if (typeof value !== "object" || value === null || Array.isArray(value) || Object.keys(value).length === 0) return invalid("reward.json must be a non-empty JSON object");
    for (const [key, v] of Object.entries(value)) if (typeof v !== "number" || !Number.isFinite(v)) return invalid(`reward.json key ${JSON.stringify(key)} is not a finite number`);
    rewards = value as Record<string, number>;
  } else if (existsSync(txt)) {
    const text = readFileSync(txt, "utf8").trim();
    const v = Number(text);
    if (text === "" || !Number.isFinite(v)) return invalid(`reward.txt must hold one number, got ${JSON.stringify(text.slice(0, 40))}`);
    rewards = { reward: v };
  } else {
    return { ok: false, kind: "harbor:missing_reward", reason: "tests/test.sh wrote no /logs/verifier/reward.txt or reward.json" };
  }
  const keys = Object.keys(rewards);
  if ("reward" in rewards) return { ok: true, reward: rewards.reward!, rewards };
  if (keys.length === 1) return { ok: true, reward: rewards[keys[0]!]!, rewards };
  return invalid(`reward.json has several keys (${keys.join(", ")}) and no "reward" key`);
}
