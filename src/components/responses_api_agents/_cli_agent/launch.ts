/**
 * What runs inside the sandbox: a folder shown read-only at /gym-agent holding the CLI, gym's own executable (as
 * a script runner), the gateway's socket, a relay script and the launcher. The sandbox has no network, so the
 * relay listens on the sandbox's loopback (127.0.0.1:RELAY_PORT) and pipes each connection to the socket; the
 * launcher starts it, waits until it accepts, then runs the CLI with its own HOME, its stdin closed.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const AGENT_ROOT = "/gym-agent";
export const CLI_PATH = `${AGENT_ROOT}/bin/cli`;
export const RUNNER_PATH = `${AGENT_ROOT}/bin/runner`;
export const GATEWAY_PATH = `${AGENT_ROOT}/gw`;
/** The CLI's HOME: under /logs/agent, so its session files stay with the trial's logs. */
export const AGENT_HOME = "/logs/agent/home";
export const RELAY_PORT = 41917;
/** Stands for the task's instruction in a CLI's argv (the launcher reads it from a file: no quoting issues). */
export const PROMPT = "\u0000PROMPT\u0000";

const RELAY = `// gym's relay: 127.0.0.1:<port> inside the sandbox -> gym's model gateway on a Unix socket.
const net = require("node:net");
const [socket, port] = process.argv.slice(2);
net.createServer((client) => {
  const upstream = net.connect(socket);
  const end = () => { client.destroy(); upstream.destroy(); };
  client.on("error", end); upstream.on("error", end); client.on("close", end); upstream.on("close", end);
  client.pipe(upstream); upstream.pipe(client);
}).listen(Number(port), "127.0.0.1");
`;

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface LaunchPlan {
  argv: string[];
  env: Record<string, string>;
  /** Variables the runner needs to act as a script runner. */
  runnerEnv: Record<string, string>;
}

/** The launcher's bash text: relay up, HOME ready, the CLI with the prompt in place of PROMPT. */
export function launcherScript(plan: LaunchPlan): string {
  const argv = plan.argv.map((a) => (a === PROMPT ? `"$__gym_prompt"` : quote(a))).join(" ");
  const exports = Object.entries(plan.env).map(([k, v]) => `export ${k}=${quote(v)}`);
  const runnerEnv = Object.entries(plan.runnerEnv).map(([k, v]) => `${k}=${quote(v)}`).join(" ");
  return [
    "#!/bin/bash",
    "set -u",
    `${runnerEnv} ${RUNNER_PATH} ${GATEWAY_PATH}/relay.js ${GATEWAY_PATH}/model.sock ${RELAY_PORT} >/dev/null 2>&1 &`,
    "__gym_ready=0",
    `for __gym_i in $(seq 1 200); do if (exec 3<>/dev/tcp/127.0.0.1/${RELAY_PORT}) 2>/dev/null; then __gym_ready=1; break; fi; sleep 0.05; done`,
    `[ "$__gym_ready" = 1 ] || { echo "gym: the model relay did not start inside the sandbox" >&2; exit 124; }`,
    `export HOME=${AGENT_HOME}`,
    `mkdir -p "$HOME" 2>/dev/null`,
    ...exports,
    `__gym_prompt="$(cat ${GATEWAY_PATH}/prompt.txt)"`,
    `${CLI_PATH} ${argv} </dev/null`,
    "",
  ].join("\n");
}

/** Writes relay.js, prompt.txt and launch.sh into the gateway's folder. */
export function writeLaunchFiles(dir: string, plan: LaunchPlan, prompt: string): void {
  writeFileSync(join(dir, "relay.js"), RELAY, { mode: 0o644 });
  writeFileSync(join(dir, "prompt.txt"), prompt, { mode: 0o644 });
  writeFileSync(join(dir, "launch.sh"), launcherScript(plan), { mode: 0o755 });
}
