/** Starting `vllm serve` as a child process: found on PATH (or refused, naming what to install), waited for, and stopped when gym exits. */
import { GymError } from "../../../errors.ts";
import { findExecutable } from "../../../runtime/executables.ts";
import { serve } from "../../../runtime/serve.ts";
import { spawnProcess, type ChildProcess } from "../../../runtime/spawn.ts";

const INSTALL_HINT =
  "Install vLLM where gym runs (`pip install vllm`; it needs an NVIDIA GPU with CUDA, or a vLLM build for your accelerator: https://docs.vllm.ai/en/latest/getting_started/installation/), " +
  "or start vLLM yourself and set `base_url` (e.g. http://host:8000/v1) on this model server, or use vllm_model with --model-url.";

/** A running `vllm serve`. */
export interface VllmProcess {
  /** `http://host:port/v1`. */
  baseUrl: string;
  pid: number;
  /** Stops it (SIGTERM) and resolves when it has exited. Safe to call twice. */
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** The server instance, for messages. */
  name: string;
  argv: string[];
  env: Record<string, string>;
  port: number;
  host: string;
  timeoutMs: number;
  /** Echo vLLM's log lines to stderr as they come. */
  echo: boolean;
  pollMs?: number;
}

/** A free TCP port on 127.0.0.1 (asked of the OS, then released for vLLM to bind). */
export async function freePort(): Promise<number> {
  const probe = await serve(() => new Response(""), { port: 0 });
  await probe.stop();
  return probe.port;
}

/** Refuses, before anything is dispatched, when no `vllm` is installed. */
export function requireVllm(name: string): string {
  const executable = findExecutable("vllm");
  if (!executable) {
    throw new GymError("E_SERVER", `Model server \`${name}\` starts a local vLLM (\`vllm serve\`), but no \`vllm\` executable is on PATH.`, { hint: INSTALL_HINT });
  }
  return executable;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Every vLLM gym started is sent SIGTERM when gym exits, however it exits (a signal handler that calls process.exit included). */
function stopAllAtExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const child of running) child.kill("SIGTERM");
  });
}

/** Starts `executable argv…` and resolves once it answers `GET /v1/models`; a vLLM that exits or never answers is a GymError with its last log lines. */
export async function launchVllm(executable: string, options: LaunchOptions): Promise<VllmProcess> {
  let child: ChildProcess;
  try {
    child = spawnProcess([executable, ...options.argv], { env: options.env });
  } catch (error) {
    throw new GymError("E_SERVER", `Could not start \`${executable} serve\` for \`${options.name}\`: ${(error as Error).message}`, { hint: INSTALL_HINT });
  }
  running.add(child);
  stopAllAtExit();
  const tail: string[] = [];
  const drain = (stream: ReadableStream<Uint8Array>) =>
    (async () => {
      const decoder = new TextDecoder();
      let pending = "";
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
        pending += decoder.decode(chunk, { stream: true });
        const lines = pending.split("\n");
        pending = lines.pop()!;
        for (const line of lines) {
          tail.push(line);
          if (tail.length > 30) tail.shift();
          if (options.echo) process.stderr.write(`[${options.name} vllm] ${line}\n`);
        }
      }
    })().catch(() => {});
  void drain(child.stdout);
  void drain(child.stderr);
  let exit: { exitCode: number | null; signal: string | null } | undefined;
  const exited = child.exited.then((e) => {
    exit = e;
    running.delete(child);
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (!exit) child.kill("SIGTERM");
      const killed = setTimeout(() => !exit && child.kill("SIGKILL"), 30_000);
      await exited;
      clearTimeout(killed);
    })());

  const urlHost = options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host;
  const baseUrl = `http://${urlHost}:${options.port}/v1`;
  const deadline = performance.now() + options.timeoutMs;
  let lastLog = performance.now();
  process.stderr.write(`Starting vLLM for \`${options.name}\` at ${baseUrl}. This can take a few minutes...\n`);
  for (;;) {
    if (exit) {
      throw new GymError("E_SERVER", `\`vllm serve\` for \`${options.name}\` exited (${exit.signal ?? `code ${exit.exitCode}`}) before it was ready. Its last lines:\n${tail.join("\n")}`, { hint: INSTALL_HINT });
    }
    try {
      const reply = await fetch(`${baseUrl}/models`, { signal: AbortSignal.timeout(2000) });
      await reply.arrayBuffer();
      if (reply.ok) return { baseUrl, pid: child.pid, stop };
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) {
      await stop();
      throw new GymError("E_SERVER", `\`vllm serve\` for \`${options.name}\` did not answer ${baseUrl}/models within ${Math.round(options.timeoutMs / 1000)} s. Its last lines:\n${tail.join("\n")}`, {
        hint: "Raise vllm_startup_timeout_s for a model that loads slowly, or set debug: true to see vLLM's log as it starts.",
      });
    }
    if (performance.now() - lastLog > 30_000) {
      process.stderr.write(`Waiting for \`${options.name}\` vLLM server to spin up...\n`);
      lastLog = performance.now();
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250))]);
  }
}
