/** Child processes: the one place that knows how this runtime spawns a program (Bun.spawn, else node:child_process). */
import { spawn as nodeSpawn } from "node:child_process";

declare const Bun: any;

export interface SpawnOptions {
  /** Bytes written to the child's stdin, then closed; nothing means stdin is /dev/null. */
  stdin?: Uint8Array;
  env?: Record<string, string>;
  cwd?: string;
}

export interface ChildProcess {
  pid: number;
  stdout: ReadableStream<Uint8Array>;
  stderr: ReadableStream<Uint8Array>;
  /** Resolves when the child has exited: its exit code, or the signal that ended it. */
  exited: Promise<{ exitCode: number | null; signal: string | null }>;
  kill(signal?: NodeJS.Signals | number): void;
}

/** Starts `argv[0]` with `argv[1..]`; throws when the program cannot be started at all. */
export function spawnProcess(argv: string[], options: SpawnOptions = {}): ChildProcess {
  if (typeof Bun !== "undefined") return bunSpawn(argv, options);
  return viaNode(argv, options);
}

function bunSpawn(argv: string[], options: SpawnOptions): ChildProcess {
  const proc = Bun.spawn({
    cmd: argv,
    stdin: options.stdin ?? "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: options.env,
    cwd: options.cwd,
  });
  return {
    pid: proc.pid,
    stdout: proc.stdout,
    stderr: proc.stderr,
    exited: proc.exited.then((code: number) => ({ exitCode: proc.signalCode ? null : code, signal: proc.signalCode ?? null })),
    kill: (signal) => proc.kill(signal ?? "SIGKILL"),
  };
}

function viaNode(argv: string[], options: SpawnOptions): ChildProcess {
  const child = nodeSpawn(argv[0]!, argv.slice(1), {
    env: options.env,
    cwd: options.cwd,
    stdio: [options.stdin ? "pipe" : "ignore", "pipe", "pipe"],
  });
  if (options.stdin) {
    child.stdin!.on("error", () => {}); // a child that exits without reading its stdin
    child.stdin!.end(options.stdin);
  }
  const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (exitCode, signal) => resolve({ exitCode, signal }));
  });
  return {
    pid: child.pid ?? -1,
    stdout: nodeStream(child.stdout!),
    stderr: nodeStream(child.stderr!),
    exited,
    kill: (signal) => void child.kill(signal ?? "SIGKILL"),
  };
}

function nodeStream(readable: NodeJS.ReadableStream): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      readable.on("data", (chunk: Uint8Array) => controller.enqueue(new Uint8Array(chunk)));
      readable.on("end", () => controller.close());
      readable.on("error", (error) => controller.error(error));
    },
  });
}

/** Runs a program to completion and returns its exit code and text output (for short probes like `bwrap --version`). */
export async function runProbe(argv: string[], options: SpawnOptions = {}): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  let child: ChildProcess;
  try {
    child = spawnProcess(argv, options);
  } catch (error) {
    return { exitCode: null, stdout: "", stderr: String((error as Error).message ?? error) };
  }
  const [stdout, stderr, status] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited.catch((error: Error) => ({ exitCode: null, signal: null, error })),
  ]);
  return { exitCode: status.exitCode, stdout, stderr };
}

/** Starts a program that outlives this process (own session, no stdio, not waited for): a watchdog. */
export function spawnDetached(argv: string[], env?: Record<string, string>): number | undefined {
  const child = nodeSpawn(argv[0]!, argv.slice(1), { detached: true, stdio: "ignore", env });
  child.on("error", () => {});
  child.unref();
  return child.pid;
}
