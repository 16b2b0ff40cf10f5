/** gym eval submit without a cluster (on the binary): reviewed --dry-run fixtures, and bad input refused before staging. */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gym, repoRoot } from "../testing/binary.ts";

const fixtures = join(repoRoot, "fixtures", "cluster");
let dir: string;
beforeAll(async () => {
  await ensureBinary();
  dir = mkdtempSync(join(tmpdir(), "gym-submit-"));
}, 120_000);

const env = () => ({ XDG_CACHE_HOME: join(dir, "cache"), HF_TOKEN: "hf_never_printed", OPENAI_API_KEY: "sk-never-printed" });

describe("gym eval submit --dry-run", () => {
  for (const name of ["full", "container"]) {
    test(`${name}.yaml renders the reviewed scripts, prints no secret, stages nothing`, async () => {
      const r = await gym(["eval", "submit", "--config", join(fixtures, `${name}.yaml`), "--dry-run"], { cwd: dir, env: env() });
      expect(r.stderr).toContain("experimental");
      expect(r.code).toBe(0);
      const text = r.stdout.replace(/gym-job-\d{8}T\d{6}Z-[0-9a-f]{6}/g, "gym-job-<ID>");
      expect(text).not.toContain("never_printed");
      expect(text).not.toContain("never-printed");
      const fixture = join(fixtures, `${name}.dry-run.txt`);
      if (process.env.UPDATE_FIXTURES) writeFileSync(fixture, text);
      expect(text).toBe(readFileSync(fixture, "utf8"));
      expect(existsSync(join(dir, "cache"))).toBe(false);
    });
  }

  test("--resolve-only --json prints the resolved config with host: references as written", async () => {
    const r = await gym(["eval", "submit", "--config", join(fixtures, "full.yaml"), "--resolve-only", "--json", "+compute.cluster.walltime=04:00:00"], { cwd: dir, env: env() });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.compute.cluster.walltime).toBe("04:00:00");
    expect(doc.services.policy.env.HF_TOKEN).toBe("host:HF_TOKEN");
  });
});

describe("bad submit input is refused before anything is staged", () => {
  const base = () => ({
    compute: { c: { type: "slurm", account: "a" } },
    driver: { benchmarks: { b: { run: { config_paths: ["resources_servers/mcqa/configs/mcqa.yaml"] } } } },
    job: { output_path: join(dir, "never") },
  });
  const cases: [string, (c: any) => void, RegExp, RegExp][] = [
    ["an unknown key", (c) => (c.driver.benchmarks.b.rn = {}), /driver\.benchmarks\.b\.rn: unknown key 'rn'/, /Did you mean driver\.benchmarks\.b\.run\?/],
    ["two compute entries", (c) => (c.compute.d = { type: "slurm", account: "a" }), /compute: 2 compute entries \(c, d\)/, /Keep one of c, d/],
    ["a placement that names nothing", (c) => (c.services = { p: { type: "ray", container: "x", placement: "gpu" } }), /services\.p\.placement: 'gpu' names no compute entry/, /Set it to c/],
    ["a missing host: variable", (c) => (c.driver.env = { K: "host:GYM_TEST_UNSET_VAR" }), /driver\.env\.K: host:GYM_TEST_UNSET_VAR is not set/, /export GYM_TEST_UNSET_VAR/],
    ["an env value without a prefix", (c) => (c.driver.env = { K: "plain" }), /driver\.env\.K: 'plain' has no lit:, host: or runtime: prefix/, /lit:plain/],
    ["a mount that does not exist", (c) => (c.driver.mounts = ["/no/such/gym/dir:/data"]), /driver\.mounts\[0\] '\/no\/such\/gym\/dir'/, /nothing was staged/],
    ["an unreachable login node", (c) => (c.compute.c.hostname = "login.invalid"), /login node 'login\.invalid' is unreachable/, /BatchMode=yes/],
    ["a wrong type", (c) => (c.compute.c.node_pools = { main: { partition: "p", nodes: "two" } }), /compute\.c\.node_pools\.main\.nodes: expected a whole number, got string "two"/, /Set compute\.c\.node_pools\.main\.nodes/],
  ];
  for (const [what, edit, message, hint] of cases) {
    test(what, async () => {
      const config = base();
      edit(config);
      const file = join(dir, "bad.yaml");
      writeFileSync(file, JSON.stringify(config));
      const r = await gym(["eval", "submit", "--config", file], { cwd: dir, env: { ...env(), GYM_BINARY: join(repoRoot, "dist", "gym") } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/Hint: /);
      expect(r.stderr).toMatch(hint);
      expect(existsSync(join(dir, "never"))).toBe(false);
    });
  }
});
