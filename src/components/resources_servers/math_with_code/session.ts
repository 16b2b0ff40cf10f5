/**
 * One rollout's Python session: a long-lived program in the sandbox (./worker.ts) that keeps the cells' state between
 * `execute_python` calls. Gym talks to it over a Unix socket made in a fresh host folder that is bound read-only into
 * the sandbox, the socket and the folder are removed as soon as the program connects, so a killed gym leaves
 * nothing on disk, and bubblewrap's --die-with-parent and pid namespace end the program with gym. `close()`
 * (at /verify, /end_session, after an idle spell) ends the program and frees its sandbox slot.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GymError } from "../../../errors.ts";
import type { PythonInfo, Sandbox, SandboxLimits, SandboxResult } from "../../../sandbox/index.ts";
import { WORKER_PY } from "./worker.ts";

/** What a cell gave back: its output and last value, or the error NeMo Gym reports as `error_message`. */
export type CellReply = { ok: true; out: string; err: string; res: string | null } | { ok: false; error: string };

export interface SessionOptions {
  timeoutSeconds: number;
  /** Seconds past the alarm before a stuck cell is killed with the session. */
  graceSeconds: number;
  /** Modules the worker must import (it fails to start otherwise). */
  required: string[];
  limits: Partial<SandboxLimits>;
}

/** Largest reply line kept; a cell that prints more ends its session. */
const MAX_REPLY_BYTES = 64 * 1024 ** 2;
const SOCKET_INSIDE = "/gym/session.sock";

export class PythonSession {
  /** Why the session ended (a stuck cell, the program died), once it has. */
  endedBecause: string | null = null;
  libraries: string[] = [];
  private buffered: Buffer[] = [];
  private bufferedBytes = 0;
  private waiting: ((line: string | null) => void) | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private socket: Socket,
    readonly finished: Promise<SandboxResult>,
  ) {
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("close", () => this.end("the session's Python program exited"));
    socket.on("error", () => this.end("the session's connection failed"));
    void finished.then((run) => this.end(`the session's Python program ended${run.reason ? ` (${run.reason})` : ""}`));
  }

  /** Starts the program in the sandbox and waits until it has imported its libraries and connected. */
  static async start(sandbox: Sandbox, python: PythonInfo, options: SessionOptions): Promise<PythonSession> {
    // A Unix socket path has at most 107 bytes: a long TMPDIR falls back to /tmp.
    const base = join(tmpdir(), "gym-mwc-XXXXXX", "session.sock").length < 100 ? tmpdir() : "/tmp";
    const folder = mkdtempSync(join(base, "gym-mwc-"));
    chmodSync(folder, 0o755);
    const hostSocket = join(folder, "session.sock");
    const server: Server = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(hostSocket, resolve);
      });
      chmodSync(hostSocket, 0o777); // the sandbox user (nobody when gym is root) connects
      const unsandboxed = sandbox.mode === "unsafe_no_sandbox";
      const conf = { socket: unsandboxed ? hostSocket : SOCKET_INSIDE, timeout: Math.max(1, Math.trunc(options.timeoutSeconds)), grace: options.graceSeconds, required: options.required };
      const connected = new Promise<Socket>((resolve) => server.once("connection", resolve));
      const finished = sandbox.run({
        argv: [python.executable, "-c", WORKER_PY, JSON.stringify(conf)],
        readOnlyRoots: python.roots,
        binds: unsandboxed ? [] : [{ host: folder, path: "/gym" }],
        env: { PYTHONDONTWRITEBYTECODE: "1" },
        limits: options.limits,
      });
      const first = await Promise.race([connected, finished]);
      if (!("write" in first)) {
        const why = first.reason ?? (first.stderr.trim().split("\n").at(-1) || `exit status ${first.exitCode}`);
        throw new GymError("E_SANDBOX", `math_with_code: the session's Python program did not start: ${why}`, {
          hint: "check that the server's python runs here and imports numpy and scipy (apt-get install python3-numpy python3-scipy python3-pandas)",
        });
      }
      const session = new PythonSession(first, finished);
      const hello = await session.nextLine();
      if (hello === null) throw new GymError("E_SANDBOX", `math_with_code: the session's Python program stopped before it was ready: ${session.endedBecause}`, { hint: "run it again; if it persists, check the sandbox (gym --version --json)" });
      session.libraries = (JSON.parse(hello) as { libraries: string[] }).libraries;
      return session;
    } finally {
      server.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }

  /** Runs one cell; calls on one session run one at a time, in order. */
  exec(code: string): Promise<CellReply> {
    const run = this.queue.then(() => this.execNow(code));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async execNow(code: string): Promise<CellReply> {
    if (this.endedBecause) return { ok: false, error: this.endedBecause };
    this.socket.write(`${JSON.stringify({ code })}\n`);
    const line = await this.nextLine();
    if (line === null) return { ok: false, error: this.endedBecause! };
    const reply = JSON.parse(line) as CellReply & { ended?: boolean };
    if (reply.ended && !reply.ok) this.end(reply.error);
    return reply;
  }

  /** Ends the program (it exits when its socket closes; the sandbox run then frees its slot). Idempotent. */
  close(): void {
    this.end("the session was closed");
  }

  private end(why: string): void {
    this.endedBecause ??= why;
    this.socket.destroy();
    const waiting = this.waiting;
    this.waiting = null;
    // A reply already complete in the buffer is still delivered.
    if (waiting) waiting(this.takeLine());
  }

  private receive(chunk: Buffer): void {
    this.buffered.push(chunk);
    this.bufferedBytes += chunk.length;
    if (this.bufferedBytes > MAX_REPLY_BYTES && !chunk.includes(10)) {
      this.end(`a cell's output passed ${MAX_REPLY_BYTES / 1024 ** 2} MiB: the session was ended`);
      return;
    }
    if (this.waiting && chunk.includes(10)) {
      const waiting = this.waiting;
      this.waiting = null;
      waiting(this.takeLine());
    }
  }

  private takeLine(): string | null {
    const all = Buffer.concat(this.buffered);
    const at = all.indexOf(10);
    if (at < 0) {
      this.buffered = [all];
      return null;
    }
    const rest = all.subarray(at + 1);
    this.buffered = rest.length ? [rest] : [];
    this.bufferedBytes = rest.length;
    return all.subarray(0, at).toString("utf8");
  }

  private nextLine(): Promise<string | null> {
    const ready = this.takeLine();
    if (ready !== null || this.endedBecause) return Promise.resolve(ready);
    return new Promise((resolve) => (this.waiting = resolve));
  }
}
