/**
 * Bun's fetch sends at most 256 requests at once unless BUN_CONFIG_MAX_HTTP_REQUESTS is set when the process
 * starts. Collection with thousands of rollouts in flight needs more, so the commands that fan out re-exec
 * themselves once with the limit raised (execve: same pid, so signals, kill -9 and locks behave as before).
 */

const LIMIT = "16384";
const FAN_OUT_COMMANDS = new Set(["eval run", "eval reverify", "env start"]);

declare const Deno: unknown;

export function raiseFetchConcurrency(argv: string[]): void {
  if (typeof Deno !== "undefined" || !process.versions.bun || process.env.BUN_CONFIG_MAX_HTTP_REQUESTS) return;
  const words = argv.filter((a) => !a.startsWith("-")).slice(0, 2).join(" ");
  if (!FAN_OUT_COMMANDS.has(words)) return;
  // An inherited pipe (`--input <(…)` is /dev/fd/63) does not survive the exec: keep this process, and its 256.
  if (argv.some((a) => /(^|=)\/(dev|proc\/self)\/fd\//.test(a))) return;
  const execve = (process as unknown as { execve?: (file: string, args: string[], env: Record<string, string | undefined>) => never }).execve;
  if (typeof execve !== "function") return;
  const compiled = process.argv[1]?.startsWith("/$bunfs/");
  const args = compiled ? [process.execPath, ...argv] : [process.execPath, process.argv[1]!, ...argv];
  execve(process.execPath, args, { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: LIMIT });
}
