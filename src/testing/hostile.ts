/**
 * The hostile-input corpus harness: each case runs the compiled binary in a fresh folder and must fail
 * cleanly — the expected exit code, `Error:` naming file:line:field, no stack trace, no file left behind,
 * every input unchanged by hash. Cases run concurrently in one `beforeAll`; each is then its own test.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, gymBinary, repoRoot } from "./binary.ts";
import { baseRun, type BaseRun } from "./hostile-base.ts";

/** A file of a case's folder: text or bytes, a symlink, a folder, or a FIFO fed with some text once. */
export type CaseFile = string | Uint8Array | { symlink: string } | { dir: true } | { mode: number; text: string };

export interface HostileCase {
  name: string;
  /** Files (relative paths) created in the case folder before the run, beside the base run's (see `BASE_FILES`). */
  files?: Record<string, CaseFile | ((base: BaseRun) => CaseFile)>;
  /** gym's arguments (run in the case folder); or `shell`, a bash line where `$GYM` is the binary. */
  args?: string[];
  shell?: string;
  stdin?: string;
  env?: Record<string, string>;
  /** Expected exit code (default 1). */
  code?: number;
  /** Fragments the `Error:` text on stderr must contain (file:line, the field, the flag…). */
  message: (string | RegExp)[];
  /** Files that may be created (relative paths); by default none may. */
  allowNew?: string[];
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  before: Map<string, string>;
  after: Map<string, string>;
  ms: number;
}

const POOL = Math.max(2, Math.min(6, Number(process.env.GYM_HOSTILE_POOL ?? 4)));

/** Registers one test per case under `title`; all cases of the suite run in parallel before the tests. */
export function hostileSuite(title: string, cases: HostileCase[]): void {
  const root = fs.mkdtempSync(join(tmpdir(), "gym-hostile-"));
  const outcomes = new Map<string, Outcome>();
  const names = new Set<string>();
  for (const c of cases) {
    if (names.has(c.name)) throw new Error(`duplicate case name: ${c.name}`);
    names.add(c.name);
  }
  describe(title, () => {
    beforeAll(async () => {
      await ensureBinary();
      const base = await baseRun();
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const i = next++;
          const c = cases[i]!;
          outcomes.set(c.name, await runCase(join(root, String(i)), c, base));
        }
      };
      await Promise.all(Array.from({ length: POOL }, worker));
    }, 120_000);
    afterAll(() => {
      fs.rmSync(root, { recursive: true, force: true });
      if (process.env.GYM_HOSTILE_TIMES) for (const [name, o] of [...outcomes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 8)) console.warn(`${o.ms.toFixed(0)} ms  ${name}`);
    });
    for (const c of cases) {
      test(c.name, () => {
        const o = outcomes.get(c.name)!;
        const shown = `exit ${o.code}\n--- stderr\n${o.stderr}\n--- stdout\n${o.stdout.slice(0, 2000)}`;
        expect({ code: o.code, shown }).toMatchObject({ code: c.code ?? 1 });
        expect(o.stderr).toContain("Error:");
        for (const m of c.message) {
          if (typeof m === "string") expect(o.stderr).toContain(m);
          else expect(o.stderr).toMatch(m);
        }
        // No stack trace, no "report it if it is a bug".
        expect(o.stderr).not.toMatch(/^\s+at .*(\(|:\d+)/m);
        expect(o.stderr).not.toContain("unexpected failure");
        // Inputs unchanged, nothing left behind (temporary files and the private TMPDIR included).
        const allowed = new Set(c.allowNew ?? []);
        const created = [...o.after.keys()].filter((k) => !o.before.has(k) && !allowed.has(k));
        expect(created).toEqual([]);
        for (const [file, hash] of o.before) expect(`${file} ${o.after.get(file) ?? "deleted"}`).toBe(`${file} ${hash}`);
      });
    }
  });
}

/** Every case folder starts with the base run's files: the dataset, the rollouts and their sidecars. */
function baseFiles(base: BaseRun): Record<string, CaseFile> {
  return { "in.jsonl": base.dataset, "r.jsonl": base.rollouts, "r_materialized_inputs.jsonl": base.inputs, "r_aggregate_metrics.json": base.metrics };
}

async function runCase(dir: string, c: HostileCase, base: BaseRun): Promise<Outcome> {
  fs.mkdirSync(join(dir, ".tmp"), { recursive: true });
  const files: Record<string, CaseFile | ((base: BaseRun) => CaseFile)> = { ...baseFiles(base), ...c.files };
  for (const [rel, made] of Object.entries(files)) {
    const content = typeof made === "function" ? made(base) : made;
    const full = join(dir, rel);
    fs.mkdirSync(join(full, ".."), { recursive: true });
    if (typeof content === "string" || content instanceof Uint8Array) fs.writeFileSync(full, content);
    else if ("symlink" in content) fs.symlinkSync(content.symlink, full);
    else if ("dir" in content) fs.mkdirSync(full, { recursive: true });
    else {
      fs.writeFileSync(full, content.text);
      fs.chmodSync(full, content.mode);
    }
  }
  const before = snapshot(dir);
  const env = { ...process.env, NO_COLOR: "1", TMPDIR: join(dir, ".tmp"), GYM: gymBinary, ...c.env } as Record<string, string>;
  const cmd = c.shell !== undefined ? ["bash", "-c", c.shell] : [gymBinary, ...(c.args ?? [])];
  const started = performance.now();
  const proc = Bun.spawn(cmd, { cwd: dir, env, stdin: c.stdin === undefined ? "ignore" : new Blob([c.stdin]), stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => proc.kill("SIGKILL"), 60_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr, before, after: snapshot(dir), ms: performance.now() - started };
}

/** Every file under `dir` (dot files and the private TMPDIR included) → a hash of its bytes (or its kind). */
function snapshot(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    const full = join(dir, rel);
    if (entry.isSymbolicLink()) out.set(rel, `symlink:${fs.readlinkSync(full)}`);
    else if (entry.isDirectory()) {
      out.set(rel, "dir");
      for (const [k, v] of snapshot(dir, rel)) out.set(k, v);
    } else if (entry.isFIFO()) out.set(rel, "fifo");
    else {
      try {
        out.set(rel, createHash("sha1").update(fs.readFileSync(full)).digest("hex"));
      } catch {
        out.set(rel, `unreadable:${fs.statSync(full).mode}`);
      }
    }
  }
  return out;
}

/** Reads a file of the repository (for cases built from the published examples). */
export function repoFile(rel: string): string {
  return fs.readFileSync(join(repoRoot, rel), "utf8");
}

/** JSONL text from rows. */
export function jsonl(rows: unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join("");
}
