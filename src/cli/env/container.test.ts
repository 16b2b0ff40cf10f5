import { expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, repoRoot } from "../../testing/binary.ts";

// The offline image (scripts/container/): built FROM scratch with the binary, then NeMo Gym's main job with no network.
const conf = process.env.CONTAINERS_CONF ?? "/etc/gym/containers.conf";
const env = { ...process.env, CONTAINERS_CONF: conf };
const podman = (...args: string[]) => spawnSync("podman", args, { env, encoding: "utf8", timeout: 240_000 });
const usable = (() => {
  if (!existsSync(conf)) return "no containers.conf (run scripts/ci/up-podman.sh)";
  const info = spawnSync("podman", ["info", "--format", "{{.Host.OCIRuntime.Name}}"], { env, encoding: "utf8", timeout: 60_000 });
  if (info.error || info.status !== 0) return `podman cannot run here (${(info.stderr || String(info.error)).trim().split("\n")[0]})`;
  return undefined;
})();
if (usable) console.warn(`skip: the offline container test because ${usable}`);

test.skipIf(usable !== undefined)("the offline image runs gym eval run on the embedded default with --network=none", async () => {
  await ensureBinary();
  const tag = `gym-offline-test-${process.pid}`;
  const build = spawnSync("bash", [join(repoRoot, "scripts/container/build.sh"), tag], { env, encoding: "utf8", timeout: 240_000 });
  if (build.status !== 0) throw new Error(`scripts/container/build.sh failed: ${build.stderr}`);
  try {
    const r = podman("run", "--rm", "--network=none", tag, "eval", "run", "--resources-server", "mcqa", "--model-type", "replay_model/mcqa_example", "--output", "-");
    expect(r.status).toBe(0);
    const rewards = r.stdout.trim().split("\n").map((l) => JSON.parse(l).reward as number);
    expect(rewards).toHaveLength(5);
    expect(rewards.reduce((a, b) => a + b, 0)).toBe(4);
    const offline = podman("run", "--rm", "--network=none", tag, "eval", "prepare", "--benchmark", "gpqa");
    expect(offline.status).toBe(1);
    expect(offline.stderr).toContain("gym env prefetch");
  } finally {
    podman("rmi", "-f", tag);
  }
}, 300_000);
