/** GymError: the one error type every layer throws, with a stable code and an exit code from one table. */

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
  | "E_INTERNAL";

const USAGE_CODES = new Set<GymErrorCode>([
  "E_USAGE",
  "E_UNKNOWN_COMMAND",
  "E_UNKNOWN_FLAG",
  "E_BAD_FLAG_VALUE",
  "E_MISSING_ARGUMENT",
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
