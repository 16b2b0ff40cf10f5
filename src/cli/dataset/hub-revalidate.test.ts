/** `gym dataset download` on a moving Hub revision: new data after a change, the cached copy offline or when the Hub is unreachable (with a warning). */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gymBinary, run } from "../../testing/binary.ts";
import { type HubServer, startHubServer } from "../../testing/hub-server.ts";

let hub: HubServer;
let cwd: string;
beforeAll(async () => {
  await ensureBinary();
  hub = await startHubServer();
  cwd = mkdtempSync(join(tmpdir(), "gym-hub-rev-"));
}, 120_000);
afterAll(() => hub.close());

const download = (output: string, env: Record<string, string> = {}, ...extra: string[]) =>
  run([gymBinary, "dataset", "download", "--repo-id", "org/moving", "--artifact", "train.jsonl", "--output", output, ...extra], {
    cwd,
    env: { HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(cwd, "cache"), NO_PROGRESS: "1", ...env },
  });

test("a dataset changed on the Hub is downloaded anew; offline and unreachable serve the cached commit, the latter with a warning", async () => {
  hub.addFile("org/moving", "train.jsonl", '{"v":1}\n');
  expect((await download("one.jsonl")).code).toBe(0);
  expect(readFileSync(join(cwd, "one.jsonl"), "utf8")).toBe('{"v":1}\n');
  const first = hub.commitOf("org/moving");

  hub.addFile("org/moving", "train.jsonl", '{"v":2}\n');
  const changed = await download("two.jsonl");
  expect(changed.code).toBe(0);
  expect(readFileSync(join(cwd, "two.jsonl"), "utf8")).toBe('{"v":2}\n');

  const pinned = await download("pinned.jsonl", {}, "--revision", first);
  expect(pinned.code).toBe(0);
  expect(readFileSync(join(cwd, "pinned.jsonl"), "utf8")).toBe('{"v":1}\n');

  const before = hub.requests.length;
  const offline = await download("offline.jsonl", { HF_HUB_OFFLINE: "1" });
  expect(offline.code).toBe(0);
  expect(readFileSync(join(cwd, "offline.jsonl"), "utf8")).toBe('{"v":2}\n');
  expect(hub.requests.length).toBe(before);

  const unreachable = await download("down.jsonl", { HF_ENDPOINT: "http://127.0.0.1:9" });
  expect(unreachable.code).toBe(0);
  expect(readFileSync(join(cwd, "down.jsonl"), "utf8")).toBe('{"v":2}\n');
  expect(unreachable.stderr).toContain(`using the cached train.jsonl of commit ${hub.commitOf("org/moving")}`);
}, 60_000);
