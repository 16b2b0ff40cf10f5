/** GymError: the one error type every layer throws, with a stable code and an exit code from one table. */
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Exit codes, one table for the whole program (README "Exit codes"). */
export const EXIT = {
  ok: 0,
  /** A config error, bad input data, a failed check, any uncaught error. */
  failure: 1,
  /** A usage error: unknown command or flag, bad value, selector that does not resolve. */
  usage: 2,
  /** `eval run` with require_complete=true: incomplete, retries remain and progress was made. */
  incompleteRetryable: 75,
  /** `eval run` with require_complete=true: incomplete and nothing left worth retrying. */
  incompleteTerminal: 76,
  /** `eval run --max-cost/--max-tokens`: stopped at the budget; `--resume` with a larger budget continues. */
  budgetStopped: 77,
  /** `eval gate`: a check failed (a threshold missed, a regression beyond the allowed drop). */
  gateFailed: 100,
  /** Interrupted by SIGINT (128 + 2), as shells report it. */
  interrupted: 130,
} as const;

/** Stable error codes. A code never changes meaning; add new ones at the end of a group. */
export type GymErrorCode =
  | "E_USAGE"
  | "E_UNKNOWN_COMMAND"
  | "E_UNKNOWN_FLAG"
  | "E_BAD_FLAG_VALUE"
  | "E_MISSING_ARGUMENT"
  | "E_CONFIG"
  | "E_CONFIG_SYNTAX"
  | "E_CONFIG_MISSING_FILE"
  | "E_CONFIG_MANDATORY"
  | "E_CONFIG_INTERPOLATION"
  | "E_CONFIG_INHERIT"
  | "E_OVERRIDE"
  | "E_INPUT_NOT_FOUND"
  | "E_INPUT_JSON"
  | "E_INPUT_TRUNCATED"
  | "E_INPUT_SCHEMA"
  | "E_INPUT_EMPTY"
  | "E_USER_MODULE"
  | "E_OUTPUT_EXISTS"
  | "E_IO"
  | "E_SERVER"
  | "E_HTTP"
  | "E_RUN_LOCKED"
  | "E_RESUME_DRIFT"
  | "E_INCOMPLETE"
  | "E_CHECK_FAILED"
  | "E_SANDBOX"
  | "E_INTERNAL"
  | "E_OUTPUT_IS_INPUT"
  | "E_INPUT_EMPTY"
  | "E_INPUT_ENCODING"
  | "E_TOO_LARGE";

const USAGE_CODES = new Set<GymErrorCode>([
  "E_USAGE",
  "E_UNKNOWN_COMMAND",
  "E_UNKNOWN_FLAG",
  "E_BAD_FLAG_VALUE",
  "E_MISSING_ARGUMENT",
  "E_OUTPUT_IS_INPUT",
]);

export interface GymErrorOptions {
  /** What to do about it: the flag, the file and line, the command to run. */
  hint?: string;
  /** Overrides the exit code that the code implies. */
  exitCode?: number;
  cause?: unknown;
}

/** An error meant for the user: its message is printed as is, without a stack (unless --debug). */
export class GymError extends Error {
  readonly code: GymErrorCode;
  readonly hint?: string;
  readonly exitCode: number;

  constructor(code: GymErrorCode, message: string, options: GymErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "GymError";
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? (USAGE_CODES.has(code) ? EXIT.usage : EXIT.failure);
  }
}

export function isGymError(error: unknown): error is GymError {
  return error instanceof GymError;
}

/** What a file-system failure means to a user, by errno code: the words and the fix. */
const FS_ERRORS: Record<string, (file: string, raw: string) => { message: string; hint: string }> = {
  ENOENT: (f) => ({ message: `File not found: ${f}`, hint: `Check the path (relative paths start at ${process.cwd()}).` }),
  EISDIR: (f) => ({ message: `${f} is a directory, where a file was expected.`, hint: "Pass a file path (for a folder of shards, a glob such as 'dir/*.jsonl')." }),
  ENOTDIR: (f) => ({ message: `A part of ${f} is a file, where a directory was expected.`, hint: "Check the path: one of its parent components is a regular file." }),
  EEXIST: (f) => ({ message: `${f} already exists.`, hint: "Remove it or choose another path." }),
  // A file that is not there was being created: its folder is what refused.
  EACCES: (f, raw) =>
    existsSync(raw)
      ? { message: `Permission denied: ${f}`, hint: `Check its permissions (ls -l ${f}), or choose a path you can read and write.` }
      : { message: `Permission denied: cannot create ${f}: the folder ${folderOf(f)} is not writable by this user.`, hint: `Make it writable (chmod u+w ${folderOf(f)}, or ask its owner), or write the outputs somewhere you can write.` },
  EPERM: (f) => ({ message: `Operation not permitted on ${f}`, hint: "Check its permissions and owner (ls -l), or choose another path." }),
  EROFS: (f) => ({ message: `${f} is on a read-only file system: ${folderOf(f)} cannot be written.`, hint: "Write the outputs to a writable location (another --output or --output-dir), or remount it read-write." }),
  ENOSPC: (f) => ({ message: `No space left on the device while writing ${f}.`, hint: "Free some space (df -h) and run the command again." }),
  EDQUOT: (f) => ({ message: `Disk quota exceeded while writing ${f}.`, hint: "Free some space within your quota (quota -s) and run the command again." }),
  EIO: (f) => ({ message: `Input/output error on ${f}: the device or network file system failed.`, hint: "Check the disk or mount (dmesg), then run the command again." }),
  EMFILE: (f) => ({ message: `Too many open files (opening ${f}).`, hint: "Raise the limit (ulimit -n 65536) or lower --concurrency." }),
  ENFILE: (f) => ({ message: `The system is out of file handles (opening ${f}).`, hint: "Close other programs or raise fs.file-max." }),
  ENAMETOOLONG: (f) => ({ message: `The path is too long: ${f}`, hint: "Use a shorter path." }),
  ELOOP: (f) => ({ message: `Too many levels of symbolic links: ${f}`, hint: "A symlink points (through others) back to itself; fix the link." }),
  ESPIPE: (f) => ({ message: `${f} cannot be read from a position (a pipe or FIFO).`, hint: "Save it to a regular file first." }),
  ENXIO: (f) => ({ message: `${f} has no process on its other end (a FIFO or socket).`, hint: "Start the writer first, or pass a regular file." }),
};

/** The folder that refused a new file: its nearest existing ancestor (`ro/` for `ro/sub/r.jsonl`). */
function folderOf(file: string): string {
  let dir = dirname(file);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return `${dir}/`;
}

/** The file a writer's temporary file (`x.<pid>.tmp`, `.x.<pid>.<n>.tmp`) stands for: what the user asked to write. */
function intendedPath(file: string): string {
  const name = basename(file);
  const hidden = /^\.(.+)\.\d+\.[0-9a-z]+\.tmp$/.exec(name) ?? /^(.+)\.\d+\.tmp$/.exec(name);
  return hidden ? join(dirname(file), hidden[1]!) : file;
}

/** The errno code of a Node-style system error (`ENOENT`, `EIO`, …), if it is one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** The one translation of a file-system error into a GymError that names the path and the fix. */
export function fsError(error: unknown, file?: string, options: { resume?: string } = {}): GymError {
  let code = errnoCode(error) ?? "EIO";
  // mkdir -p over a regular file says EEXIST; what the user must hear is that a parent is a file.
  if (code === "EEXIST" && (error as { syscall?: string }).syscall === "mkdir") code = "ENOTDIR";
  const raw = file ?? ((error as { path?: unknown })?.path as string | undefined) ?? "(a file)";
  const where = intendedPath(raw);
  const known = FS_ERRORS[code];
  // ENOENT while creating a writer's temporary file in a folder that exists: the file system refused a new file (/proc, /sys).
  const own = (error as { path?: unknown })?.path;
  const creating = [raw, typeof own === "string" ? own : ""].some((p) => p && intendedPath(p) !== p && existsSync(dirname(p)));
  if (code === "ENOENT" && creating) return new GymError("E_IO", `Cannot create ${where}: ${folderOf(where)} does not accept new files.`, { hint: "Write the outputs to a regular folder.", cause: error });
  const { message, hint } = known ? known(where, raw) : { message: `Cannot access ${where}: ${(error as Error)?.message ?? String(error)}`, hint: "Check the path and its permissions." };
  const resumable = options.resume && (code === "ENOSPC" || code === "EDQUOT" || code === "EIO");
  return new GymError(code === "ENOENT" ? "E_INPUT_NOT_FOUND" : "E_IO", message, {
    hint: resumable ? `${hint.replace(/ and run the command again\.$|, then run the command again\.$/, ".")} Everything finished so far is saved: \`${options.resume}\` will finish the run.` : hint,
    cause: error,
  });
}

/** At the edge: any error that is a system error (not already a GymError) becomes one that names its path. */
export function toGymError(error: unknown, options: { resume?: string } = {}): GymError | undefined {
  if (!isGymError(error)) return errnoCode(error) ? fsError(error, undefined, options) : undefined;
  // A GymError wrapping a full disk still owes the user the resume sentence.
  const cause = (error as { cause?: unknown }).cause;
  if (!options.resume || !["ENOSPC", "EDQUOT"].includes(errnoCode(cause) ?? "") || error.hint?.includes("--resume")) return error;
  const resume = `Free some space (df -h). Everything finished so far is saved: \`${options.resume}\` will finish the run.`;
  return new GymError(error.code, error.message, { hint: resume, exitCode: error.exitCode, cause });
}

/** The error for an input that holds no rows (empty, or only blank lines): says which file and that nothing was written. */
export function emptyInput(file: string, what?: string): GymError {
  return new GymError("E_INPUT_EMPTY", `${file}${what ? ` (${what})` : ""} holds no rows: the file is empty or blank.`, {
    hint: "Pass a JSONL file with one JSON object per line; nothing was written.",
  });
}
