/** hfListTree against the stand-in Hub (driven also by @huggingface/hub's own listFiles): pages, folders, short shas, the cache offline and when the Hub is unreachable. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listFiles } from "@huggingface/hub";
import { type HubServer, startHubServer } from "../../testing/hub-server.ts";
import { hfDownload } from "./download.ts";
import { hfListTree, hfTreeUrl, nextLink } from "./tree.ts";

let hub: HubServer;
let dir: string;
let pinned: string;
let caches = 0;
const freshEnv = () => ({ HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(dir, `cache${++caches}`) });
const paths = (entries: { path: string }[]) => entries.map((e) => e.path);

beforeAll(async () => {
  hub = await startHubServer();
  hub.addFile("org/outputs", "README.md", "# outputs\n");
  hub.addFile("org/outputs", "data/train-00000-of-00002.parquet", new Uint8Array(20_000).fill(1));
  hub.addFile("org/outputs", "data/train-00001-of-00002.parquet", new Uint8Array(20_000).fill(2));
  pinned = hub.commitOf("org/outputs");
  // A later commit renames the files: only the listing at the pinned revision names the old ones.
  hub.removeFile("org/outputs", "data/train-00000-of-00002.parquet");
  hub.removeFile("org/outputs", "data/train-00001-of-00002.parquet");
  hub.addFile("org/outputs", "data/train-00000-of-00001.parquet", new Uint8Array(20_000).fill(3));
  dir = mkdtempSync(join(tmpdir(), "gym-hf-tree-"));
});
afterAll(async () => {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("hfListTree", () => {
  test("the URL quotes revision and path whole, as huggingface_hub does; Link rel=next is read", () => {
    expect(hfTreeUrl({ repoId: "o/r", revision: "refs/pr/1", path: "data/x", recursive: true }, { HF_ENDPOINT: "https://hub.example/" })).toBe("https://hub.example/api/datasets/o/r/tree/refs%2Fpr%2F1/data%2Fx?recursive=true&expand=false");
    expect(nextLink('<https://h/api/x?cursor=a>; rel="next", <https://h/api/x?cursor=0>; rel="prev"')).toBe("https://h/api/x?cursor=a");
    expect(nextLink('<https://h/a>; rel="prev"')).toBeUndefined();
  });

  test("recursive listing at a short sha, every page followed; a folder; LFS entries carry their sha256", async () => {
    hub.treePageSize = 2;
    try {
      const env = freshEnv();
      const before = hub.requests.length;
      const all = await hfListTree({ repoId: "org/outputs", revision: pinned.slice(0, 12), recursive: true }, { env });
      expect(paths(all)).toEqual(["README.md", "data", "data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"]);
      expect(hub.requests.slice(before).filter((r) => r.path.includes("/tree/")).length).toBe(2);
      expect(all[2]!.lfs?.size).toBe(20_000);
      expect(all[1]!.type).toBe("directory");
      const now = await hfListTree({ repoId: "org/outputs", path: "data" }, { env });
      expect(paths(now)).toEqual(["data/train-00000-of-00001.parquet"]);
      // The data file at the short sha downloads through the same layer (its commit recorded for offline use).
      const file = await hfDownload({ repoId: "org/outputs", path: "data/train-00001-of-00002.parquet", revision: pinned.slice(0, 12) }, { env, retries: 1 });
      expect(file).toContain(join("snapshots", pinned));
    } finally {
      hub.treePageSize = 1000;
    }
  });

  test("@huggingface/hub's listFiles (a real client) accepts the stand-in's pages", async () => {
    hub.treePageSize = 1;
    try {
      const got: string[] = [];
      for await (const entry of listFiles({ repo: { type: "dataset", name: "org/outputs" }, revision: pinned, recursive: true, hubUrl: hub.url })) got.push(entry.path);
      expect(got).toEqual(["README.md", "data", "data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"]);
    } finally {
      hub.treePageSize = 1000;
    }
  });

  test("offline: the cached listing answers, else the refusal names the URL and gym env prefetch", async () => {
    const env = freshEnv();
    const request = { repoId: "org/outputs", revision: pinned.slice(0, 12), recursive: true };
    const online = await hfListTree(request, { env });
    const before = hub.requests.length;
    expect(await hfListTree(request, { env: { ...env, HF_HUB_OFFLINE: "1" } })).toEqual(online);
    expect(hub.requests.length).toBe(before);
    const refused = await hfListTree({ ...request, path: "data" }, { env: { ...env, HF_HUB_OFFLINE: "1" } }).catch((e) => e);
    expect(refused.message).toContain("Offline (HF_HUB_OFFLINE is set)");
    expect(refused.message).toContain("/tree/");
    expect(refused.hint).toContain("gym env prefetch");
  });

  test("a full sha is served from the cache unasked; an unreachable Hub falls back with a warning; errors name the revision", async () => {
    const env = freshEnv();
    await hfListTree({ repoId: "org/outputs", revision: pinned, recursive: true }, { env });
    const before = hub.requests.length;
    await hfListTree({ repoId: "org/outputs", revision: pinned, recursive: true }, { env });
    expect(hub.requests.length).toBe(before);
    await hfListTree({ repoId: "org/outputs" }, { env });
    const warnings: string[] = [];
    const down = { ...env, HF_ENDPOINT: "http://127.0.0.1:9" };
    // Same cache, a Hub that does not answer: the listing cached for `main` stands in.
    const cached = await hfListTree({ repoId: "org/outputs" }, { env: down, warn: (l) => warnings.push(l) });
    expect(paths(cached)).toEqual(["README.md", "data"]);
    expect(warnings[0]).toContain("using the cached listing");
    const missing = await hfListTree({ repoId: "org/outputs", revision: "nope" }, { env }).catch((e) => e);
    expect(missing.message).toContain("has no revision 'nope'");
    const none = await hfListTree({ repoId: "org/absent" }, { env }).catch((e) => e);
    expect(none.message).toContain("was not found");
  });
});
