/** The resumable prologue's decision table (§9.5), run in bash against canned `scontrol show job` lines. */
import { beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resumablePrologue } from "./chain.ts";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "gym-chain-"));
  const bin = join(root, "bin");
  mkdirSync(bin);
  // Stand-ins for the two Slurm clients the prologue calls: scontrol prints $PREV_LINE, sbatch records its arguments.
  writeFileSync(join(bin, "scontrol"), '#!/bin/bash\nprintf "%s\\n" "$PREV_LINE"\n');
  writeFileSync(join(bin, "sbatch"), '#!/bin/bash\necho "$@" >> sbatch.calls\necho 501\n');
  writeFileSync(join(bin, "sacct"), "#!/bin/bash\nexit 1\n");
  for (const f of ["scontrol", "sbatch", "sacct"]) chmodSync(join(bin, f), 0o755);
});

function segment(prevLine: string | undefined, files: Record<string, string> = {}, resumable: Parameters<typeof resumablePrologue>[0] = true) {
  const dir = join(root, `job-${Math.random().toString(16).slice(2)}`);
  mkdirSync(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  writeFileSync(join(dir, "job.sh"), `#!/bin/bash\n${resumablePrologue(resumable)}\necho WORK\n`);
  const r = spawnSync("bash", ["job.sh", ...(prevLine === undefined ? [] : ["500"])], {
    cwd: dir, encoding: "utf8", env: { PATH: `${join(root, "bin")}:/usr/bin:/bin`, SLURM_JOB_ID: "501", PREV_LINE: prevLine ?? "" },
  });
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8").trim() : undefined);
  const result = { code: r.status, out: r.stdout + r.stderr, worked: r.stdout.includes("WORK"), successor: read("sbatch.calls"), retries: read(".gym_infra_retries"), walltime: read(".gym_accumulated_walltime"), chain: read(".gym_job_chain") };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const job = (state: string, exit: string, runTime = "00:01:40") => `JobId=500 JobName=gym-b JobState=${state} Reason=None ExitCode=${exit} RunTime=${runTime} TimeLimit=00:02:00`;

describe("resumable chain prologue", () => {
  test("the first job works and queues its afternotok successor", () => {
    const r = segment(undefined);
    expect(r).toMatchObject({ code: 0, worked: true, chain: "501" });
    expect(r.successor).toBe("--parsable --dependency=afternotok:501 --kill-on-invalid-dep=yes job.sh 501");
  });
  test("after exit 75 it resumes without spending a retry and adds the elapsed time", () => {
    expect(segment(job("FAILED", "75:0"), { ".gym_accumulated_walltime": "20\n" })).toMatchObject({ worked: true, retries: undefined, walltime: "120" });
  });
  test("after a walltime (TIMEOUT) or a preemption it resumes without spending a retry", () => {
    expect(segment(job("TIMEOUT", "0:15"))).toMatchObject({ worked: true, retries: undefined });
    expect(segment(job("PREEMPTED", "0:15"))).toMatchObject({ worked: true, retries: undefined });
  });
  test("COMPLETED, CANCELLED and exit 76 end the chain with 0 and queue nothing", () => {
    for (const line of [job("COMPLETED", "0:0"), job("CANCELLED", "0:15"), job("FAILED", "76:0")]) {
      expect(segment(line)).toMatchObject({ code: 0, worked: false, successor: undefined });
    }
  });
  test("any other failure spends an infrastructure retry; past max_retries the chain stops with 1", () => {
    expect(segment(job("FAILED", "1:0"))).toMatchObject({ worked: true, retries: "1" });
    expect(segment(job("FAILED", "1:0"), { ".gym_infra_retries": "2" }, { max_retries: 2, max_walltime: null })).toMatchObject({ code: 1, worked: false, retries: "3" });
  });
  test("accumulated walltime at max_walltime stops the chain", () => {
    const r = segment(job("TIMEOUT", "0:15", "1-00:00:00"), { ".gym_accumulated_walltime": "3600" }, { max_retries: 3, max_walltime: "24:00:00" });
    expect(r).toMatchObject({ code: 0, worked: false, walltime: String(24 * 3600 + 3600) });
  });
  test("a cap raised by resubmit --recover --max-walltime wins over the rendered one", () => {
    const files = { ".gym_accumulated_walltime": "7150", ".gym_max_walltime": "86400" };
    expect(segment(job("TIMEOUT", "0:15"), files, { max_retries: 3, max_walltime: "02:00:00" })).toMatchObject({ worked: true });
    expect(segment(job("TIMEOUT", "0:15"), { ".gym_accumulated_walltime": "7150" }, { max_retries: 3, max_walltime: "02:00:00" })).toMatchObject({ worked: false, code: 0 });
  });
  test("no record of the previous job (accounting lag) resumes without a retry", () => {
    expect(segment("")).toMatchObject({ worked: true, retries: undefined });
  });
});
