/**
 * The verifier fixture: a resources server's own JSONL of scoring cases (`resources_servers/NAME/tests/verifier_cases.jsonl`,
 * our form of NeMo Gym's exported VERIFIER_FIXTURE). Each case runs on a fresh in-process server through `/verify`:
 * a full-reward case, a zero-reward case, a malformed request, and for a seeded workload a determinism case.
 */
import { GymError } from "../../errors.ts";
import { readFromRoots, type Root } from "../../config/index.ts";
import { writeFileAtomic } from "../../runtime/files.ts";
import { ServerRegistry } from "../../servers/registry.ts";
import { builtinCatalogs } from "../builtins.ts";

export const FIXTURE_FILE = "tests/verifier_cases.jsonl";
const KINDS = ["full_reward", "zero_reward", "malformed", "determinism"] as const;
type CaseKind = (typeof KINDS)[number];

export interface FixtureCase {
  name: string;
  kind: CaseKind;
  request: Record<string, unknown>;
  expected_reward?: number;
  expected_error?: string;
}

export interface FixtureResult {
  name: string;
  kind: CaseKind;
  observed_rewards: number[];
}

export interface FixtureContract {
  rewardRange: [number, number];
  higherIsBetter: boolean;
  determinism: string;
}

/** The server instance the cases run against: its implementation and config block. */
export interface FixtureServer {
  name: string;
  implementation: string;
  block: Record<string, unknown>;
  roots: Root[];
  globalConfig: Record<string, unknown>;
}

/** Where a server's fixture is: the first root that has `resources_servers/NAME/verifier_fixture.jsonl`. */
export async function findFixture(implementation: string, roots: Root[]): Promise<{ display: string; path?: string; text: string } | undefined> {
  return (await readFromRoots(`resources_servers/${implementation}/${FIXTURE_FILE}`, roots)).found;
}

/** Parses and checks the cases (strict keys, the expectation each kind needs); errors name the file and line. */
export function parseFixture(text: string, file: string): FixtureCase[] {
  const cases: FixtureCase[] = [];
  text.split("\n").forEach((line, i) => {
    if (!line.trim()) return;
    const where = `${file}:${i + 1}`;
    let c: Record<string, unknown>;
    try {
      c = JSON.parse(line);
    } catch (error) {
      throw new GymError("E_INPUT_JSON", `Invalid JSON in verifier fixture ${where}: ${(error as Error).message}`);
    }
    const bad = (why: string) => new GymError("E_INPUT_SCHEMA", `Invalid verifier fixture ${where}: ${why}`, { hint: 'Each line: {"name", "kind": full_reward|zero_reward|malformed|determinism, "request": {…}, "expected_reward" or (malformed) "expected_error"}.' });
    if (!c || typeof c !== "object" || Array.isArray(c)) throw bad("a case must be a JSON object");
    const extra = Object.keys(c).filter((k) => !["name", "kind", "request", "expected_reward", "expected_error"].includes(k));
    if (extra.length) throw bad(`unknown key(s) ${extra.join(", ")}`);
    if (typeof c.name !== "string" || !c.name.trim()) throw bad("'name' must be a non-empty string");
    if (!KINDS.includes(c.kind as CaseKind)) throw bad(`'kind' must be one of ${KINDS.join(", ")}`);
    if (!c.request || typeof c.request !== "object" || Array.isArray(c.request)) throw bad("'request' must be an object (a /verify body)");
    const reward = c.expected_reward;
    if (c.kind === "malformed") {
      if (typeof c.expected_error !== "string" || !c.expected_error || reward !== undefined) throw bad("a malformed case requires expected_error and forbids expected_reward");
    } else if (typeof reward !== "number" || !Number.isFinite(reward) || c.expected_error !== undefined) {
      throw bad(`a ${c.kind} case requires a finite expected_reward and forbids expected_error`);
    }
    cases.push({ ...(c as unknown as FixtureCase), name: (c.name as string).trim() });
  });
  if (!cases.length) throw new GymError("E_INPUT_EMPTY", `Verifier fixture ${file} contains no cases.`);
  return cases;
}

/** Runs every case; with `updateExpected`, rewrites the observed rewards after every behavioural check passed. */
export async function exerciseFixture(server: FixtureServer, contract: FixtureContract, updateExpected = false): Promise<{ file: string; results: FixtureResult[] }> {
  const found = await findFixture(server.implementation, server.roots);
  if (!found) {
    throw new GymError("E_CHECK_FAILED", `Resources server '${server.implementation}' has no verifier fixture (resources_servers/${server.implementation}/${FIXTURE_FILE}).`, {
      hint: "Add one with a full_reward, a zero_reward and a malformed case; `gym env init --resources-server NAME` writes one to start from.",
    });
  }
  const cases = parseFixture(found.text, found.display);
  const [lower, upper] = contract.rewardRange;
  const [full, zero] = contract.higherIsBetter ? [upper, lower] : [lower, upper];
  const required: CaseKind[] = ["full_reward", "zero_reward", "malformed", ...(contract.determinism === "seeded" ? (["determinism"] as const) : [])];
  const missing = required.filter((k) => !cases.some((c) => c.kind === k));
  if (missing.length) throw fail(`Verifier fixture ${found.display} is missing required cases: ${missing.join(", ")}`);

  const results: FixtureResult[] = [];
  const updated: FixtureCase[] = [];
  for (const c of cases) {
    if (c.kind === "determinism" && contract.determinism !== "seeded") {
      updated.push(c);
      continue;
    }
    if (c.kind === "malformed") {
      const answer = await callVerify(server, c, false);
      if (answer.ok) throw fail(`Malformed case '${c.name}' did not fail (it scored ${answer.reward}).`);
      if (!answer.error.includes(c.expected_error!)) throw fail(`Malformed case '${c.name}' error did not contain ${JSON.stringify(c.expected_error)}: ${answer.error}`);
      results.push({ name: c.name, kind: c.kind, observed_rewards: [] });
      updated.push(c);
      continue;
    }
    const observed = await reward(server, c);
    if (!(lower <= observed && observed <= upper)) throw fail(`Case '${c.name}' returned reward ${observed} outside the declared range [${lower}, ${upper}].`);
    const observations = [observed];
    if (c.kind === "full_reward" && observed !== full) throw fail(`Full-reward case '${c.name}' does not pin the ${contract.higherIsBetter ? "upper" : "lower"} endpoint: expected ${full}, observed ${observed}`);
    if (c.kind === "zero_reward" && observed !== zero) throw fail(`Zero-reward case '${c.name}' does not pin the ${contract.higherIsBetter ? "lower" : "upper"} endpoint: expected ${zero}, observed ${observed}`);
    if (c.kind === "determinism") {
      const again = await reward(server, c);
      observations.push(again);
      if (again !== observed) throw fail(`Determinism case '${c.name}' changed on a fresh server: ${observed} then ${again}`);
    }
    if (!updateExpected && observed !== c.expected_reward) throw fail(`Case '${c.name}' reward mismatch: expected ${c.expected_reward}, observed ${observed}`);
    results.push({ name: c.name, kind: c.kind, observed_rewards: observations });
    updated.push({ ...c, expected_reward: observed });
  }
  if (updateExpected && updated.some((c, i) => c.expected_reward !== cases[i]!.expected_reward)) {
    if (!found.path) throw fail("Cannot update the verifier fixture of a built-in server: it is part of the binary; use a source checkout.");
    writeFileAtomic(found.path, updated.map((c) => `${JSON.stringify(sortKeys(c))}\n`).join(""));
  }
  return { file: found.display, results };
}

const fail = (message: string) => new GymError("E_CHECK_FAILED", message, { hint: "Fix the verifier or the case; `gym env test --update-expected NAME` rewrites expected rewards once the other checks pass." });

async function reward(server: FixtureServer, c: FixtureCase): Promise<number> {
  const answer = await callVerify(server, c, c.kind === "determinism");
  if (!answer.ok) throw fail(`Case '${c.name}' failed: ${answer.error}`);
  return answer.reward;
}

/** One case on a fresh server (NeMo Gym builds a new server per observation); determinism cases seed a session first. */
async function callVerify(server: FixtureServer, c: FixtureCase, reseed: boolean): Promise<{ ok: true; reward: number } | { ok: false; error: string }> {
  let registry: ServerRegistry;
  try {
    const userRoots = server.roots.flatMap((r) => (r.kind === "dir" ? [r.path] : []));
    registry = await ServerRegistry.create([{ name: server.name, serverType: "resources_servers", implementation: server.implementation, block: server.block }], { builtins: await builtinCatalogs(), userRoots, globalConfig: server.globalConfig });
  } catch (error) {
    throw fail(`Case '${c.name}' could not create a fresh server: ${(error as Error).message}`);
  }
  const app = registry.app(server.name);
  if (!app) throw fail(`Resources server '${server.implementation}' is not a built-in or a TypeScript server under a root, so its fixture cannot run in-process.`);
  const post = (path: string, body: unknown, cookie?: string) => app.request(path, { method: "POST", headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  let cookie: string | undefined;
  if (reseed) {
    const seeded = await post("/seed_session", c.request);
    cookie = seeded.headers.get("set-cookie")?.split(";")[0];
  }
  const response = await post("/verify", c.request, cookie);
  const text = await response.text();
  if (!response.ok) return { ok: false, error: `HTTP ${response.status}: ${text}` };
  const value = JSON.parse(text).reward;
  if (typeof value !== "number" || !Number.isFinite(value)) throw fail(`Case '${c.name}' returned a non-finite numeric reward: ${JSON.stringify(value)}`);
  return { ok: true, reward: value };
}

function sortKeys(value: FixtureCase): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : 1)));
}
