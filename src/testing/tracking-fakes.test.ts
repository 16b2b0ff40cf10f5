/** The W&B stand-in follows the real API closely enough that W&B's own JavaScript SDK logs a run to it. */
import { expect, test } from "bun:test";
import { startFakeWandb } from "./tracking-fakes.ts";

test("@wandb/sdk (the real client) opens, logs and finishes a run on the stand-in", async () => {
  const key = "k".repeat(40);
  const fake = await startFakeWandb({ key });
  const saved = { url: process.env.WANDB_BASE_URL, key: process.env.WANDB_API_KEY };
  process.env.WANDB_BASE_URL = fake.url;
  process.env.WANDB_API_KEY = key;
  try {
    const { default: wandb } = await import("@wandb/sdk");
    await wandb.init({ project: "sdk-check", name: "sdk-run", config: { lr: 0.1 } });
    wandb.log({ "mean/reward": 0.8 });
    await wandb.finish();
    expect(fake.runs).toHaveLength(1);
    expect(fake.runs[0]).toMatchObject({ project: "sdk-check", displayName: "sdk-run", config: { lr: 0.1 }, complete: true, exitcode: 0 });
    expect(fake.runs[0]!.history[0]).toMatchObject({ "mean/reward": 0.8, _step: 0 });
  } finally {
    for (const [name, value] of [["WANDB_BASE_URL", saved.url], ["WANDB_API_KEY", saved.key]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await fake.stop();
  }
});
