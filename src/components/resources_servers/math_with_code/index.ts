/**
 * math_with_code: NeMo Gym's `PythonExecutorResourcesServer`. The model calls `execute_python` (a stateful Python
 * session per rollout, keyed by the session cookie, with numpy / scipy / pandas) and ends with `\boxed{answer}`;
 * `/verify` compares it to `expected_result` (./answer.ts) and ends the session, as `/end_session` does. The
 * session's program runs in the sandbox (bubblewrap; `sandbox: unsafe_no_sandbox` or GYM_SANDBOX opts out), not
 * in a forked process of the server as in NeMo Gym.
 */
import type { JsonObject } from "../../../protocol/responses.ts";
import { openSandbox, probePython, requirePython, sandboxMode, type PythonInfo, type Sandbox } from "../../../sandbox/index.ts";
import { GymError } from "../../../errors.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { answersMatch, rolloutAnswer } from "./answer.ts";
import { PythonSession, type CellReply } from "./session.ts";

export interface MathWithCodeConfig extends JsonObject {
  max_execution_time: number;
  sandbox: string | null;
  python: string | null;
}

/** Modules a session refuses to start without (pandas is bound when installed: see the README). */
const REQUIRED = ["numpy", "scipy"];
/** A session left without calls this long (a rollout that never reached /verify) is ended. */
export const IDLE_SECONDS = 30 * 60;
/** The longest a session lives, whatever it does. */
export const SESSION_SECONDS = 2 * 3600;

interface Entry {
  session: Promise<PythonSession>;
  idle?: ReturnType<typeof setTimeout>;
}

interface State {
  ready?: Promise<{ sandbox: Sandbox; python: PythonInfo }>;
  sessions: Map<string, Entry>;
}

async function interpreter(configured: string | null): Promise<PythonInfo> {
  if (!configured) return requirePython("math_with_code");
  const info = await probePython(configured);
  if (!info) throw new GymError("E_SANDBOX", `math_with_code runs the model's code with ${configured}, which does not run here.`, { hint: "set the server's `python` key to a working interpreter, or leave it unset for python3 on PATH" });
  return info;
}

function dropSession(state: State, sessionId: string): void {
  const entry = state.sessions.get(sessionId);
  if (!entry) return;
  state.sessions.delete(sessionId);
  clearTimeout(entry.idle);
  void entry.session.then((s) => s.close(), () => undefined);
}

function touch(state: State, sessionId: string, entry: Entry): void {
  clearTimeout(entry.idle);
  entry.idle = setTimeout(() => dropSession(state, sessionId), IDLE_SECONDS * 1000);
  entry.idle.unref?.();
}

function session(state: State, config: MathWithCodeConfig, sessionId: string): Entry {
  let entry = state.sessions.get(sessionId);
  if (!entry) {
    state.ready ??= (async () => ({ sandbox: await openSandbox(sandboxMode(config.sandbox), "math_with_code"), python: await interpreter(config.python) }))();
    const ready = state.ready;
    const started = ready.then(({ sandbox, python }) =>
      PythonSession.start(sandbox, python, {
        timeoutSeconds: config.max_execution_time,
        graceSeconds: 5,
        required: REQUIRED,
        limits: { wallSeconds: SESSION_SECONDS, cpuSeconds: SESSION_SECONDS, memoryBytes: 4 * 1024 ** 3, processes: 256 },
      }),
    );
    entry = { session: started };
    state.sessions.set(sessionId, entry);
    // A session that failed to start is forgotten: the next call tries again.
    started.catch(() => state.sessions.get(sessionId) === entry && state.sessions.delete(sessionId));
  }
  touch(state, sessionId, entry);
  return entry;
}

const EMPTY = { success: true, stdout: "", stderr: "", error_message: null, result: null };

export default defineResourcesServer<MathWithCodeConfig, State>({
  name: "math_with_code",
  className: "PythonExecutorResourcesServer",
  config: {
    fields: {
      max_execution_time: py.withDefault(py.int(), () => 10),
      sandbox: py.optional(py.str()),
      python: py.optional(py.str()),
    },
  },
  createState: () => ({ sessions: new Map() }),
  tools: {
    execute_python: {
      request: { fields: { code: py.str() } },
      async handler(body, { state, config, sessionId }) {
        // A sandbox or interpreter that cannot start is the run's problem (an HTTP 500 naming it), not the model's.
        const reply: CellReply = await (await session(state, config, sessionId).session).exec(body.code as string);
        if (!reply.ok) return { success: false, stdout: "", stderr: "", error_message: reply.error, result: null };
        return { success: true, stdout: reply.out, stderr: reply.err, error_message: null, result: reply.res };
      },
    },
    end_session: {
      handler(_body, { state, sessionId }) {
        dropSession(state, sessionId);
        return EMPTY;
      },
    },
  },
  verify: {
    request: { fields: { expected_result: py.str(), expected_code_contains: py.withDefault(py.str(), () => "") } },
    response: ["extracted_answer", "accuracy"],
    handler(body, { state, sessionId }) {
      try {
        const actual = rolloutAnswer(((body.response as JsonObject).output as JsonObject[] | undefined) ?? []);
        const accuracy = answersMatch(actual, body.expected_result as string);
        return { reward: accuracy ? 1 : 0, extracted_answer: actual, accuracy };
      } finally {
        dropSession(state, sessionId);
      }
    },
  },
});
