/** hfDownload against the stand-in Hub: revalidation of branches by commit, the commit-keyed cache, offline and unreachable fallbacks. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type HubServer, startHubServer } from "../../testing/hub-server.ts";
import { hfDownload } from "./download.ts";

let hub: HubServer;
let dir: string;
const big = new Uint8Array(300_000).map((_, i) => (i * 31 + 7) % 251);

beforeAll(async () => {
  hub = await startHubServer();
  hub.addFile("org/data", "big.bin", big);
  hub.addFile("org/data", "small.jsonl", '{"a":1}\n');
  dir = mkdtempSync(join(tmpdir(), "gym-hf-"));
});
afterAll(async () => {
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

const quiet = { retries: 2, progress: { start() {}, update() {}, done() {} } };
let caches = 0;
const freshEnv = () => ({ HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(dir, `cache${++caches}`) });
/** The requests a call makes, by method. */
async function requestsOf<T>(call: () => Promise<T>): Promise<{ result: T; methods: string[] }> {
  const before = hub.requests.length;
  const result = await call();
  return { result, methods: hub.requests.slice(before).map((r) => r.method) };
}

describe("hfDownload revalidates a branch and keys the cache by commit", () => {
  test("the file lands in snapshots/<commit>; asking again costs one HEAD and no download", async () => {
    const env = freshEnv();
    const commit = hub.commitOf("org/data");
    const path = await hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env, ...quiet });
    expect(path).toBe(join(env.NEMO_GYM_CACHE_DIR, "hf", "datasets", "org", "data", "snapshots", commit, "small.jsonl"));
    expect(readFileSync(join(env.NEMO_GYM_CACHE_DIR, "hf", "datasets", "org", "data", "refs", "main"), "utf8")).toBe(commit);
    const again = await requestsOf(() => hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env, ...quiet }));
    expect(again).toEqual({ result: path, methods: ["HEAD"] });
  });

  test("after the dataset changes on the Hub, the next download gets the new data", async () => {
    const env = freshEnv();
    hub.addFile("org/moving", "train.jsonl", '{"v":1}\n');
    const first = await hfDownload({ repoId: "org/moving", path: "train.jsonl" }, { env, ...quiet });
    expect(readFileSync(first, "utf8")).toBe('{"v":1}\n');
    hub.addFile("org/moving", "train.jsonl", '{"v":2}\n');
    const second = await hfDownload({ repoId: "org/moving", path: "train.jsonl" }, { env, ...quiet });
    expect(readFileSync(second, "utf8")).toBe('{"v":2}\n');
    expect(second).toContain(hub.commitOf("org/moving"));
    // The old commit's copy is still there, and asked for by its sha it costs no request.
    const old = await requestsOf(() => hfDownload({ repoId: "org/moving", path: "train.jsonl", revision: first.split("/").at(-2)! }, { env, ...quiet }));
    expect(old).toEqual({ result: first, methods: [] });
    expect(readFileSync(first, "utf8")).toBe('{"v":1}\n');
  });

  test("a branch that moved for another file's change reuses the unchanged blob: a HEAD, no download", async () => {
    const env = freshEnv();
    hub.addFile("org/two", "a.jsonl", '{"a":1}\n');
    const first = await hfDownload({ repoId: "org/two", path: "a.jsonl" }, { env, ...quiet });
    hub.addFile("org/two", "b.jsonl", '{"b":1}\n');
    const again = await requestsOf(() => hfDownload({ repoId: "org/two", path: "a.jsonl" }, { env, ...quiet }));
    expect(again.methods).toEqual(["HEAD"]);
    expect(again.result).not.toBe(first);
    expect(readFileSync(again.result, "utf8")).toBe('{"a":1}\n');
  });

  test("a commit-sha revision is downloaded once, then served without any request", async () => {
    const env = freshEnv();
    const sha = hub.commitOf("org/data");
    const path = await hfDownload({ repoId: "org/data", path: "big.bin", revision: sha }, { env, ...quiet });
    expect(readFileSync(path).length).toBe(big.length);
    const again = await requestsOf(() => hfDownload({ repoId: "org/data", path: "big.bin", revision: sha }, { env, ...quiet }));
    expect(again).toEqual({ result: path, methods: [] });
  });

  test("offline (HF_HUB_OFFLINE or GYM_OFFLINE): the cached copy, no request; nothing cached is refused naming the file", async () => {
    const env = freshEnv();
    const path = await hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env, ...quiet });
    for (const offline of [{ HF_HUB_OFFLINE: "1" }, { GYM_OFFLINE: "true" }]) {
      expect(await requestsOf(() => hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env: { ...env, ...offline }, ...quiet }))).toEqual({ result: path, methods: [] });
    }
    const missing = await hfDownload({ repoId: "org/data", path: "big.bin" }, { env: { ...env, HF_HUB_OFFLINE: "1" }, ...quiet }).catch((e) => e);
    expect(missing.message).toContain("resolve/main/big.bin");
    expect(missing.hint).toContain("gym env prefetch");
  });

  test("an unreachable Hub (no connection, or a 5xx): the cached copy with a warning naming its commit", async () => {
    const env = freshEnv();
    const commit = hub.commitOf("org/data");
    const path = await hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env, ...quiet });
    const warnings: string[] = [];
    const down = await hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env: { ...env, HF_ENDPOINT: "http://127.0.0.1:9" }, ...quiet, warn: (w) => warnings.push(w) });
    expect(down).toBe(path);
    expect(warnings.join("\n")).toContain(`cannot reach 127.0.0.1:9`);
    expect(warnings.join("\n")).toContain(`using the cached small.jsonl of commit ${commit}`);
    hub.faults.status = { code: 503, times: 1 };
    const busy = await hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env, ...quiet, warn: (w) => warnings.push(w) });
    expect(busy).toBe(path);
    expect(warnings.at(-1)).toContain("answered HTTP 503");
  });

  test("nothing cached and the HEAD answered 5xx: the download's own retries fetch the file and record its commit", async () => {
    const env = freshEnv();
    hub.faults.status = { code: 503, times: 1 };
    const path = await hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env, ...quiet });
    expect(path).toContain(`/snapshots/${hub.commitOf("org/data")}/small.jsonl`);
    expect(readFileSync(path, "utf8")).toBe('{"a":1}\n');
  });

  test("a server without X-Repo-Commit is not taken for a Hub", async () => {
    const strip = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await fetch(input, init);
      const headers = new Headers(response.headers);
      headers.delete("x-repo-commit");
      return new Response(response.body, { status: response.status, headers });
    }) as typeof fetch;
    const error = await hfDownload({ repoId: "org/data", path: "small.jsonl" }, { env: freshEnv(), ...quiet, fetch: strip }).catch((e) => e);
    expect(error.message).toContain("answered without X-Repo-Commit");
  });

  test("an error the Hub names (a removed file) is reported even when an older copy is cached", async () => {
    const env = freshEnv();
    hub.addFile("org/gone", "x.jsonl", "{}\n");
    await hfDownload({ repoId: "org/gone", path: "x.jsonl" }, { env, ...quiet });
    hub.addFile("org/gone", "other.jsonl", "{}\n");
    hub.removeFile("org/gone", "x.jsonl");
    const error = await hfDownload({ repoId: "org/gone", path: "x.jsonl" }, { env, ...quiet }).catch((e) => e);
    expect(error.message).toContain("no file 'x.jsonl' at revision 'main'");
  });

  test("a copy cached by an earlier gym (<repo>/<revision>/<path>) still serves offline", async () => {
    const env = freshEnv();
    const legacy = join(env.NEMO_GYM_CACHE_DIR, "hf", "datasets", "org", "old", "main");
    mkdirSync(legacy, { recursive: true });
    writeFileSync(join(legacy, "t.jsonl"), "{}\n");
    expect(await hfDownload({ repoId: "org/old", path: "t.jsonl" }, { env: { ...env, HF_HUB_OFFLINE: "1" } })).toBe(join(legacy, "t.jsonl"));
  });
});

describe("hfDownload", () => {
  test("missing repo, revision and file each get their own error naming them", async () => {
    const env = { HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(dir, "cache2") };
    const repo = await hfDownload({ repoId: "org/nope", path: "x.jsonl" }, { env, ...quiet }).catch((e) => e);
    expect(repo.message).toContain("dataset org/nope was not found");
    const rev = await hfDownload({ repoId: "org/data", path: "small.jsonl", revision: "v9" }, { env, ...quiet }).catch((e) => e);
    expect(rev.message).toContain("no revision 'v9'");
    const file = await hfDownload({ repoId: "org/data", path: "missing.jsonl" }, { env, ...quiet }).catch((e) => e);
    expect(file.message).toContain("no file 'missing.jsonl' at revision 'main'");
    expect(file.hint).toContain("--artifact");
  });

  test("HF_TOKEN is sent to the Hub and kept off the CDN on another origin; a wrong token is named", async () => {
    const cdn = await startHubServer();
    cdn.addFile("org/private", "big.bin", big);
    hub.addRepo("org/private", { private: true });
    hub.addFile("org/private", "big.bin", big);
    hub.tokens.add("hf_good");
    hub.cdnBase = cdn.url;
    try {
      const env = { HF_ENDPOINT: hub.url, NEMO_GYM_CACHE_DIR: join(dir, "cache3"), HF_TOKEN: "hf_good" };
      const path = await hfDownload({ repoId: "org/private", path: "big.bin" }, { env, ...quiet });
      expect(readFileSync(path).length).toBe(big.length);
      expect(hub.requests.at(-1)?.headers.authorization).toBe("Bearer hf_good");
      expect(cdn.requests.at(-1)?.headers.authorization).toBeUndefined();
      const wrong = await hfDownload({ repoId: "org/private", path: "big.bin" }, { env: { ...env, HF_TOKEN: "hf_bad" }, force: true, ...quiet }).catch((e) => e);
      expect(wrong.message).toContain("refused HF_TOKEN");
      expect(wrong.message).not.toContain("hf_bad");
      const none = await hfDownload({ repoId: "org/private", path: "big.bin" }, { env: { ...env, HF_TOKEN: undefined }, force: true, ...quiet }).catch((e) => e);
      expect(none.hint).toContain("HF_TOKEN");
    } finally {
      hub.cdnBase = undefined;
      hub.tokens.clear();
      await cdn.close();
    }
  });
});

test("the real @huggingface/hub client accepts the stand-in: each upload is a new commit it downloads by branch or sha, as hfDownload does", async () => {
  const { createRepo, downloadFile, uploadFile } = await import("@huggingface/hub");
  hub.tokens.add("hf_client");
  try {
    const common = { repo: { type: "dataset" as const, name: "org/client" }, accessToken: "hf_client", hubUrl: hub.url };
    await createRepo({ ...common });
    const one = await uploadFile({ ...common, file: { path: "t.jsonl", content: new Blob(['{"v":1}\n']) } });
    const two = await uploadFile({ ...common, file: { path: "t.jsonl", content: new Blob(['{"v":2}\n']) } });
    expect(one!.commit.oid).not.toBe(two!.commit.oid);
    expect(two!.commit.oid).toBe(hub.commitOf("org/client"));
    expect(await (await downloadFile({ ...common, path: "t.jsonl" }))!.text()).toBe('{"v":2}\n');
    expect(await (await downloadFile({ ...common, path: "t.jsonl", revision: one!.commit.oid }))!.text()).toBe('{"v":1}\n');
    const env = { ...freshEnv(), HF_TOKEN: "hf_client" };
    expect(readFileSync(await hfDownload({ repoId: "org/client", path: "t.jsonl" }, { env, ...quiet }), "utf8")).toBe('{"v":2}\n');
    expect(readFileSync(await hfDownload({ repoId: "org/client", path: "t.jsonl", revision: one!.commit.oid }, { env, ...quiet }), "utf8")).toBe('{"v":1}\n');
  } finally {
    hub.tokens.clear();
  }
});
