import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { acquireRunLock, STALE_AFTER_MS, startTick } from "./lock.ts";

const dir = () => fs.mkdtempSync(join(tmpdir(), "gym-lock-"));
const write = (path: string, owner: object) => fs.writeFileSync(path, `${JSON.stringify(owner)}\n`);
const started = new Date().toISOString();

describe("the run lock tells a live holder from a stale one", () => {
  test("a live holder on this host is refused, naming it and how to override", () => {
    const sleeper = Bun.spawn(["sleep", "30"]);
    try {
      const path = join(dir(), "r_run.lock");
      write(path, { pid: sleeper.pid, host: hostname(), started, tick: startTick(sleeper.pid) });
      expect(() => acquireRunLock(path, "r.jsonl", () => {})).toThrow(/pid \d+.*is writing r\.jsonl/);
      try {
        acquireRunLock(path, "r.jsonl", () => {});
      } catch (error) {
        expect((error as { hint: string }).hint).toContain(`delete the lock file ${path}`);
      }
    } finally {
      sleeper.kill();
    }
  });

  test("a pid that now belongs to a later process (pid reuse) is stale", () => {
    const sleeper = Bun.spawn(["sleep", "30"]);
    try {
      const path = join(dir(), "r_run.lock");
      write(path, { pid: sleeper.pid, host: hostname(), started, tick: "1" });
      const notes: string[] = [];
      acquireRunLock(path, "r.jsonl", (m) => notes.push(m)).release();
      expect(notes.join()).toContain("now belongs to another process");
      expect(fs.existsSync(path)).toBe(false);
    } finally {
      sleeper.kill();
    }
  });

  test("a lock from before this boot is stale", () => {
    const path = join(dir(), "r_run.lock");
    write(path, { pid: process.ppid, host: hostname(), started, boot: "another-boot" });
    const notes: string[] = [];
    acquireRunLock(path, "r.jsonl", (m) => notes.push(m)).release();
    expect(notes.join()).toContain("before this machine last booted");
  });

  test("another host's lock: refused while refreshed, taken over once it is old", () => {
    const path = join(dir(), "r_run.lock");
    write(path, { pid: 1, host: "node-17", started });
    expect(() => acquireRunLock(path, "r.jsonl", () => {})).toThrow(/pid 1 on host node-17/);
    const old = new Date(Date.now() - STALE_AFTER_MS - 5000);
    fs.utimesSync(path, old, old);
    const notes: string[] = [];
    acquireRunLock(path, "r.jsonl", (m) => notes.push(m)).release();
    expect(notes.join()).toContain("written on host node-17");
  });
});

test("once held, the temporary files a killed writer left beside the output are removed (a live writer's stay)", () => {
  const d = dir();
  const out = join(d, "r.jsonl");
  const dead = [".r.jsonl.99999999.1.tmp", ".r.jsonl.99999999.k3j2.tmp"];
  const live = `.r.jsonl.${process.ppid}.1.tmp`;
  for (const name of [...dead, live, ".other.jsonl.99999999.1.tmp"]) fs.writeFileSync(join(d, name), "x");
  acquireRunLock(join(d, "r_run.lock"), out, () => {}).release();
  expect(fs.readdirSync(d).sort()).toEqual([".other.jsonl.99999999.1.tmp", live].sort());
});

test("a lock without a start time names its holder without 'undefined'", () => {
  const path = join(dir(), "r_run.lock");
  write(path, { pid: 1, host: "otherhost" });
  expect(() => acquireRunLock(path, "r.jsonl", () => {})).toThrow("Another collector (pid 1 on host otherhost) is writing r.jsonl.");
});

test("a takeover marker left by a process that died mid-takeover does not block the next taker, and is cleaned up", () => {
  const d = dir();
  const path = join(d, "r_run.lock");
  const stale = `${JSON.stringify({ pid: 1, host: hostname(), started, boot: "an-earlier-boot" })}\n`;
  fs.writeFileSync(path, stale);
  const marker = `${path}.takeover-${createHash("sha256").update(stale).digest("hex")}`;
  write(marker, { pid: 2 ** 22 + 7, host: hostname(), started });
  const notes: string[] = [];
  const lock = acquireRunLock(path, join(d, "r.jsonl"), (m) => notes.push(m));
  expect(JSON.parse(fs.readFileSync(path, "utf8")).pid).toBe(process.pid);
  expect(notes.join()).toContain("before this machine last booted");
  lock.release();
  expect(fs.readdirSync(d)).toEqual([]);
});
