/** Reaching the cluster: this machine, or a login node over one SSH master connection (BatchMode, accept-new host keys). */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { GymError } from "../errors.ts";

export interface ShellResult { code: number; stdout: string; stderr: string }

export interface Connection {
  readonly remote: boolean;
  readonly host: string;
  /** Runs a bash script there and captures its output. */
  run(script: string): Promise<ShellResult>;
  /** Puts a local directory tree at `target` there, replacing what was at that path. */
  copy(localDir: string, target: string): Promise<void>;
  close(): void;
}

function exec(cmd: string[], stdin: string): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd[0]!, cmd.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** True when `host` means this machine (null, localhost, or this host's name), so no SSH is needed. */
export function isLocalHost(host: string | null): boolean {
  if (host === null || host === "" || host === "localhost") return true;
  const here = hostname();
  return host === here || host.split(".")[0] === here.split(".")[0];
}

class LocalConnection implements Connection {
  readonly remote = false;
  readonly host = hostname();
  run(script: string) {
    return exec(["bash", "-s"], script);
  }
  async copy(localDir: string, target: string) {
    if (fs.realpathSync(localDir) === (fs.existsSync(target) ? fs.realpathSync(target) : "")) return;
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(join(target, ".."), { recursive: true });
    fs.cpSync(localDir, target, { recursive: true, preserveTimestamps: true });
  }
  close() {}
}

class SshConnection implements Connection {
  readonly remote = true;
  private readonly dir = fs.mkdtempSync(join(tmpdir(), "gym-ssh-"));
  private readonly options: string[];
  constructor(readonly host: string) {
    this.options = ["-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=accept-new", "-o", `ControlPath=${join(this.dir, "master")}`, "-o", "ConnectTimeout=15"];
  }
  open(): void {
    const r = spawnSync("ssh", [...this.options, "-o", "ControlMaster=yes", "-o", "ControlPersist=600", "-fN", this.host], { encoding: "utf8", timeout: 30_000 });
    if (r.status !== 0) {
      this.close();
      const why = (r.stderr || r.error?.message || `ssh exited ${r.status}`).trim();
      throw new GymError("E_CONFIG", `compute hostname: login node '${this.host}' is unreachable: ${why}`, {
        hint: "Check the compute entry's hostname and that `ssh -o BatchMode=yes HOST true` works without a password (keys or an agent); null submits from this machine.",
      });
    }
  }
  run(script: string) {
    return exec(["ssh", ...this.options, this.host, "bash -s"], script);
  }
  async copy(localDir: string, target: string) {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const made = await this.run(`mkdir -p ${q(target)}`);
    if (made.code !== 0) throw new GymError("E_IO", `Could not create ${target} on ${this.host}: ${made.stderr.trim()}`, { hint: "Check job.output_path and your permissions on the login node." });
    const hasRsync = spawnSync("rsync", ["--version"], { stdio: "ignore" }).status === 0;
    const cmd = hasRsync
      ? ["rsync", "-az", "--delete", "-e", `ssh ${this.options.join(" ")}`, `${localDir}/`, `${this.host}:${target}/`]
      : ["bash", "-c", `tar -C ${q(localDir)} -cf - . | ssh ${this.options.map(q).join(" ")} ${q(this.host)} ${q(`rm -rf ${q(target)} && mkdir -p ${q(target)} && tar -C ${q(target)} -xf -`)}`];
    const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8" });
    if (r.status !== 0) throw new GymError("E_IO", `Copying the staged run to ${this.host}:${target} failed: ${(r.stderr ?? "").trim()}`, { hint: "Check disk space and permissions under job.output_path on the login node." });
  }
  close() {
    spawnSync("ssh", [...this.options, "-O", "exit", this.host], { stdio: "ignore", timeout: 10_000 });
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Opens the connection the compute entry names; an unreachable login node is refused here, before anything is staged. */
export function connect(host: string | null): Connection {
  if (isLocalHost(host)) return new LocalConnection();
  const ssh = new SshConnection(host!);
  ssh.open();
  return ssh;
}

/** Mount sources that do not exist there (`test -e` in one shell). */
export async function missingMounts(conn: Connection, sources: string[]): Promise<Set<string>> {
  if (sources.length === 0) return new Set();
  if (!conn.remote) return new Set(sources.filter((s) => !fs.existsSync(s)));
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const out = await conn.run(sources.map((s) => `test -e ${q(s)} || echo "__GYM_MISSING:${s}"`).join("\n"));
  return new Set(out.stdout.split("\n").filter((l) => l.startsWith("__GYM_MISSING:")).map((l) => l.slice("__GYM_MISSING:".length)));
}
