import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gymBinary, run } from "../../testing/binary.ts";
import { type GitlabServer, startGitlabServer } from "../../testing/gitlab-server.ts";
import { type HubServer, startHubServer } from "../../testing/hub-server.ts";

// The seed's examples, run as written against the fake Hub (driven by the real @huggingface/hub) and the fake GitLab.
let hub: HubServer;
let gl: GitlabServer;
let cwd: string;
let env: Record<string, string>;
const row = (i: number) => JSON.stringify({ responses_create_params: { input: [{ role: "user", content: `q${i}` }] }, expected_answer: String(i) });
const big = `${Array.from({ length: 3000 }, (_, i) => row(i)).join("\n")}\n`;

beforeAll(async () => {
  await ensureBinary();
  hub = await startHubServer();
  hub.tokens.add("hf_writer");
  gl = await startGitlabServer();
  cwd = mkdtempSync(join(tmpdir(), "gym-ds-"));
  writeFileSync(join(cwd, "env.yaml"), `hf_organization: NVIDIA\ngitlab_url: ${gl.url}\ngitlab_project_id: ${gl.projectId}\ngitlab_token: ${gl.token}\n`);
  env = { ...(process.env as Record<string, string>), HF_ENDPOINT: hub.url, HF_TOKEN: "hf_writer", NEMO_GYM_CACHE_DIR: join(cwd, "cache"), NO_PROGRESS: "1" };
  writeFileSync(join(cwd, "train.jsonl"), big);
});
afterAll(async () => {
  await hub.close();
  await gl.close();
});

const gym = (...argv: string[]) => run([gymBinary, ...argv], { cwd, env });

describe("gym dataset upload | download | rm | migrate", () => {
  test("upload to Hugging Face (LFS through the real client), download it back byte for byte", async () => {
    const up = await gym("dataset", "upload", "--name", "my_dataset", "--input", "train.jsonl", "--revision", "0.0.1");
    expect(up.stderr).toContain("NVIDIA/my_dataset@0.0.1/train.jsonl");
    expect(up.code).toBe(0);
    expect(up.stderr + up.stdout).not.toContain("hf_writer");
    hub.addFile("NVIDIA/NeMo-Gym-Math-example_multi_step-v1", "train.jsonl", big);
    const down = await gym("dataset", "download", "--repo-id", "NVIDIA/NeMo-Gym-Math-example_multi_step-v1", "--artifact", "train.jsonl", "--output", "data/train.jsonl");
    expect(down.code).toBe(0);
    expect(readFileSync(join(cwd, "data/train.jsonl"), "utf8")).toBe(big);
    const back = await gym("dataset", "download", "--repo-id", "NVIDIA/my_dataset", "--revision", "0.0.1", "--artifact", "train.jsonl", "--output", "data/back.jsonl", "--json");
    expect(JSON.parse(back.stdout).output).toBe(join(cwd, "data/back.jsonl"));
    expect(readFileSync(join(cwd, "data/back.jsonl"), "utf8")).toBe(big);
  });

  test("GitLab: upload, download, rm (refuses without --yes off a terminal), the seed's flags", async () => {
    expect((await gym("dataset", "upload", "--storage", "gitlab", "--name", "my_dataset", "--input", "train.jsonl", "--revision", "0.0.1")).code).toBe(0);
    const down = await gym("dataset", "download", "--storage", "gitlab", "--name", "my_dataset", "--revision", "0.0.1", "--artifact", "train.jsonl", "--output", "data/gl.jsonl");
    expect(down.code).toBe(0);
    expect(readFileSync(join(cwd, "data/gl.jsonl"), "utf8")).toBe(big);
    const refused = await gym("dataset", "rm", "--name", "my_dataset");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--yes");
    expect(gl.packages.get("my_dataset")?.versions.has("0.0.1")).toBe(true);
    expect((await gym("dataset", "rm", "--name", "my_dataset", "--yes")).code).toBe(0);
    expect(gl.packages.get("my_dataset")?.versions.size).toBe(0);
  });

  test("migrate uploads to Hugging Face, checks it, then deletes from GitLab", async () => {
    await gym("dataset", "upload", "--storage", "gitlab", "--name", "mig", "--input", "train.jsonl", "--revision", "0.0.1");
    const r = await gym("dataset", "migrate", "--name", "mig", "--input", "train.jsonl", "--revision", "0.0.1");
    expect(r.code).toBe(0);
    expect(gl.packages.get("mig")?.versions.size).toBe(0);
    const back = await gym("dataset", "download", "--repo-id", "NVIDIA/mig", "--revision", "0.0.1", "--artifact", "train.jsonl", "--output", "data/mig.jsonl");
    expect(back.code).toBe(0);
  });

  test("bad input: a token without hf_, a wrong token, a missing revision, a 404 artifact, a dropped connection", async () => {
    const noPrefix = await run([gymBinary, "dataset", "upload", "--name", "x", "--input", "train.jsonl"], { cwd, env: { ...env, HF_TOKEN: "abc123" } });
    expect(noPrefix.code).toBe(1);
    expect(noPrefix.stderr).toContain("does not start with 'hf_'");
    expect(noPrefix.stderr).not.toContain("abc123");
    const wrong = await run([gymBinary, "dataset", "upload", "--name", "x", "--input", "train.jsonl"], { cwd, env: { ...env, HF_TOKEN: "hf_wrong" } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("refused HF_TOKEN");
    expect(wrong.stderr).not.toContain("hf_wrong");
    const rev = await gym("dataset", "download", "--repo-id", "NVIDIA/my_dataset", "--revision", "9.9.9", "--artifact", "train.jsonl", "--output", "data/r.jsonl");
    expect(rev.stderr).toContain("no revision '9.9.9'");
    const missing = await gym("dataset", "download", "--storage", "gitlab", "--name", "nope", "--revision", "0.0.1", "--artifact", "train.jsonl", "--output", "data/n.jsonl");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("nope/0.0.1/train.jsonl");
    expect(existsSync(join(cwd, "data/n.jsonl"))).toBe(false);
    hub.addFile("NVIDIA/drop", "train.jsonl", big);
    hub.faults.dropAfterBytes = 50_000;
    hub.faults.drops = 10;
    const dropped = await gym("dataset", "download", "--repo-id", "NVIDIA/drop", "--artifact", "train.jsonl", "--output", "data/d.jsonl");
    expect(dropped.code).toBe(1);
    expect(dropped.stderr).toContain("NVIDIA/drop/train.jsonl");
    expect(existsSync(join(cwd, "data/d.jsonl"))).toBe(false);
    hub.faults.drops = 0;
    hub.faults.dropAfterBytes = undefined;
    const retry = await gym("dataset", "download", "--repo-id", "NVIDIA/drop", "--artifact", "train.jsonl", "--output", "data/d.jsonl");
    expect(retry.code).toBe(0);
    expect(readFileSync(join(cwd, "data/d.jsonl"), "utf8")).toBe(big);
  });
});

describe("gym dataset collate --download", () => {
  test("fetches example_multi_step's GitLab-sourced train and validation, then collates them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gym-collate-"));
    writeFileSync(join(dir, "env.yaml"), `gitlab_url: ${gl.url}\ngitlab_project_id: ${gl.projectId}\ngitlab_token: ${gl.token}\n`);
    const example = readFileSync(join(import.meta.dir, "../../components/resources_servers/example_multi_step/data/example.jsonl"));
    for (const f of ["train.jsonl", "validation.jsonl"]) {
      writeFileSync(join(dir, f), example);
      expect((await run([gymBinary, "dataset", "upload", "--storage", "gitlab", "--name", "example_multi_step", "--revision", "0.0.1", "--input", f], { cwd: dir, env })).code).toBe(0);
    }
    const r = await run([gymBinary, "dataset", "collate", "--resources-server", "example_multi_step", "--output-dir", "out", "--mode", "train_preparation", "--download"], { cwd: dir, env });
    expect(r.stderr).toContain("Downloading dataset 'train'");
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "resources_servers/example_multi_step/data/train.jsonl"))).toEqual(example);
    expect(existsSync(join(dir, "out/train.jsonl"))).toBe(true);
    const offline = await run([gymBinary, "dataset", "collate", "--resources-server", "example_multi_step", "--output-dir", "out2", "--mode", "train_preparation"], { cwd: dir, env });
    expect(offline.code).toBe(0);
  });
});

describe("gym env prefetch", () => {
  test("the seed's form fetches a config's GitLab datasets and a benchmark's Hub source; offline, a second prefetch and the prepare need nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gym-prefetch-"));
    writeFileSync(join(dir, "env.yaml"), `gitlab_url: ${gl.url}\ngitlab_project_id: ${gl.projectId}\ngitlab_token: ${gl.token}\n`);
    const example = readFileSync(join(import.meta.dir, "../../components/resources_servers/example_multi_step/data/example.jsonl"));
    for (const f of ["train.jsonl", "validation.jsonl"]) {
      writeFileSync(join(dir, f), example);
      await run([gymBinary, "dataset", "upload", "--storage", "gitlab", "--name", "example_multi_step", "--revision", "0.0.1", "--input", f], { cwd: dir, env });
    }
    const csv = `Record ID,Question,Correct Answer,Incorrect Answer 1,Incorrect Answer 2,Incorrect Answer 3\r\nrec1,Which gas is noble?,Neon,Nitrogen,Oxygen,Hydrogen\r\n`;
    hub.addFile("Idavidrein/gpqa", "gpqa_diamond.csv", csv);
    const penv = { ...env, NEMO_GYM_CACHE_DIR: join(dir, "cache") };
    const first = await run([gymBinary, "env", "prefetch", "+config_paths=[resources_servers/example_multi_step/configs/example_multi_step.yaml]", "--json"], { cwd: dir, env: penv });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).downloaded).toEqual([join(dir, "resources_servers/example_multi_step/data/train.jsonl"), join(dir, "resources_servers/example_multi_step/data/validation.jsonl")]);
    const bench = await run([gymBinary, "env", "prefetch", "--benchmark", "gpqa", "--json"], { cwd: dir, env: penv });
    expect(bench.code).toBe(0);
    expect(JSON.parse(bench.stdout).prepared).toHaveLength(1);
    const offline = { ...penv, GYM_OFFLINE: "1", HF_ENDPOINT: "http://127.0.0.1:9" };
    const again = await run([gymBinary, "env", "prefetch", "+config_paths=[resources_servers/example_multi_step/configs/example_multi_step.yaml]", "--json"], { cwd: dir, env: offline });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).downloaded).toEqual([]);
    rmSync(join(dir, JSON.parse(bench.stdout).prepared[0]), { force: true });
    const prepare = await run([gymBinary, "eval", "prepare", "--benchmark", "gpqa"], { cwd: dir, env: offline });
    expect(prepare.code).toBe(0);
    rmSync(join(dir, "cache"), { recursive: true, force: true });
    rmSync(join(dir, JSON.parse(bench.stdout).prepared[0]), { force: true });
    const refused = await run([gymBinary, "eval", "prepare", "--benchmark", "gpqa"], { cwd: dir, env: offline });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("gym env prefetch");
    expect(refused.stderr).toContain("/datasets/Idavidrein/gpqa/resolve/main/gpqa_diamond.csv");
  });
});
