import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readReward } from "./reward.ts";
import { globMatcher } from "./tasks.ts";

const dirWith = (files: Record<string, string>) => {
  const dir = mkdtempSync(join(tmpdir(), "gym-reward-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

describe("reading a Harbor reward file (reward.json first, then reward.txt)", () => {
  test("reward.txt → {reward}; reward.json wins; the only key is the reward", () => {
    expect(readReward(dirWith({ "reward.txt": "0.5\n" }))).toEqual({ ok: true, reward: 0.5, rewards: { reward: 0.5 } });
    expect(readReward(dirWith({ "reward.txt": "0", "reward.json": '{"reward": 0.75, "style": 1}' }))).toEqual({ ok: true, reward: 0.75, rewards: { reward: 0.75, style: 1 } });
    expect(readReward(dirWith({ "reward.json": '{"score": 1}' }))).toMatchObject({ ok: true, reward: 1 });
  });

  test("missing, empty, non-numeric, nested, several keys without reward", () => {
    expect(readReward(dirWith({}))).toMatchObject({ ok: false, kind: "harbor:missing_reward" });
    for (const files of [{ "reward.txt": "" }, { "reward.txt": "yes" }, { "reward.json": "{}" }, { "reward.json": '{"reward": {"a": 1}}' }, { "reward.json": '{"a": 1, "b": 0}' }, { "reward.json": '{"reward": true}' }] as Record<string, string>[]) {
      expect(readReward(dirWith(files))).toMatchObject({ ok: false, kind: "harbor:invalid_reward" });
    }
  });
});

test("--only-tasks globs: * and ?, comma-separated", () => {
  const match = globMatcher(["hello-*,task-?"]);
  expect(["hello-a", "task-1", "task-12", "hello"].filter(match)).toEqual(["hello-a", "task-1"]);
});
