/**
 * workplace_assistant: NeMo Gym's stateful workplace tools (email, calendar, analytics, project management, CRM,
 * company directory) over seeded tables, one workplace per session. `/verify` scores by final state: the
 * rollout's function calls and the ground-truth calls are each replayed on a fresh seeded workplace, and the
 * reward is 1 when the two end states match (strings compared case-insensitively but for status/list_name/board).
 */
import { readBuiltinFile } from "../../../config/builtin-files.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { HttpFailure } from "../../../servers/gym-app.ts";
import { defineResourcesServer, py, type Field, type ToolDefinition } from "../../../servers/resources/index.ts";
import { functionCalls } from "../_common/output.ts";
import { PyException } from "../_python/errors.ts";
import { cloneTable, equalAfterLowercase, readCsv, type Table } from "./table.ts";
import { analytics } from "./tools/analytics.ts";
import { calendar } from "./tools/calendar.ts";
import { crm, directory } from "./tools/crm.ts";
import { email } from "./tools/email.ts";
import { projectManagement } from "./tools/project_management.ts";
import type { ToolFunction, WorkplaceState } from "./tools/types.ts";

/** Every tool by its name (NeMo Gym's 27, in its order). */
export const TOOLS: Record<string, ToolFunction> = { ...directory, ...email, ...calendar, ...analytics, ...projectManagement, ...crm };

const CLASSES: [string, string][] = [
  ["company_directory_", "CompanyDirectoryTool"],
  ["email_", "EmailTool"],
  ["calendar_", "CalendarTool"],
  ["analytics_", "AnalyticsTool"],
  ["project_management_", "ProjectManagementTool"],
  ["customer_relationship_manager_", "CustomerRelationshipManagerTool"],
];

let seedTables: Promise<WorkplaceState> | undefined;

/** The seeded tables, read once from `csv_data.json` (NeMo Gym's CSV files, verbatim). */
function seed(): Promise<WorkplaceState> {
  seedTables ??= (async () => {
    const text = await readBuiltinFile("resources_servers/workplace_assistant/csv_data.json");
    if (text === undefined) throw new Error("workplace_assistant: csv_data.json is missing from the built-in files");
    const csv = JSON.parse(text) as Record<string, string>;
    const analyticsTable = readCsv(csv["csv_data/processed/analytics_data.csv"]!);
    for (const row of analyticsTable.rows) row.user_engaged = row.user_engaged === "True";
    return {
      directory: readCsv(csv["csv_data/raw/email_addresses.csv"]!, ["email_address"]),
      emails: readCsv(csv["csv_data/processed/emails.csv"]!),
      calendar: readCsv(csv["csv_data/processed/calendar_events.csv"]!),
      analytics: analyticsTable,
      plots: { columns: ["file_path"], rows: [], labels: [] },
      tasks: readCsv(csv["csv_data/processed/project_tasks.csv"]!),
      crm: readCsv(csv["csv_data/processed/customer_relationship_manager_data.csv"]!),
    };
  })();
  return seedTables;
}

/** A fresh workplace: its own copy of every seeded table. */
export async function freshWorkplace(): Promise<WorkplaceState> {
  const s = await seed();
  const entries = Object.entries(s).map(([k, t]) => [k, cloneTable(t as Table)]);
  return Object.fromEntries(entries) as WorkplaceState;
}

/** `function(**kwargs)`: an unknown keyword is Python's TypeError; missing ones take their defaults. */
export function callTool(state: WorkplaceState, name: string, args: Record<string, unknown>): unknown {
  const tool = TOOLS[name];
  if (!tool) throw new PyException("KeyError", `'${name}'`);
  for (const key of Object.keys(args)) {
    if (!Object.hasOwn(tool.params, key)) {
      const [prefix, cls] = CLASSES.find(([p]) => name.startsWith(p))!;
      throw new PyException("TypeError", `${cls}.${name.slice(prefix.length)}() got an unexpected keyword argument '${key}'`);
    }
  }
  return tool.run(state, { ...tool.params, ...args });
}

/** execute_actions_and_reset_state: each action on a fresh workplace; one that raises is skipped. */
export async function replay(actions: unknown): Promise<WorkplaceState> {
  const state = await freshWorkplace();
  // A string ground truth iterates as characters, none of which is an action.
  if (!Array.isArray(actions)) return state;
  for (const action of actions as JsonObject[]) {
    try {
      if (typeof action.name !== "string" || typeof action.arguments !== "string") continue;
      const args = JSON.parse(action.arguments);
      if (args === null || typeof args !== "object" || Array.isArray(args)) continue;
      callTool(state, action.name, args);
    } catch {
      continue;
    }
  }
  return state;
}

const KEEP_CASE = ["status", "list_name", "board"];
const COMPARED = ["calendar", "emails", "plots", "tasks", "crm"] as const;

/** is_correct: the two replayed end states match table by table. */
export async function sameFinalState(predicted: unknown, groundTruth: unknown): Promise<boolean> {
  const [a, b] = await Promise.all([replay(predicted), replay(groundTruth)]);
  return COMPARED.every((k) => equalAfterLowercase(a[k], b[k], KEEP_CASE));
}

/** `list[Dict[str, str]] | str`. */
const groundTruthField: Field = {
  schema: { anyOf: [{ type: "array", items: { type: "object", additionalProperties: { type: "string" } } }, { type: "string" }] },
  check: (x, loc, out) => (typeof x === "string" ? x : py.list(py.dictOf(py.str())).check(x, loc, out)),
};

type Sessions = Map<string, WorkplaceState>;

function toolRoute(name: string): ToolDefinition<JsonObject, Sessions> {
  return {
    request: { fields: {}, extra: "allow" },
    handler(body, { state, sessionId }) {
      const workplace = state.get(sessionId);
      if (!workplace) throw new HttpFailure(400, "Session not initialized. Please call seed_session first.");
      // The route drops null arguments before the call (a null `notes` takes its default "").
      const args = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
      try {
        return { output: callTool(workplace, name, args) };
      } catch (e) {
        return { output: `Error executing tool '${name}': ${(e as Error).message}` };
      }
    },
  };
}

export default defineResourcesServer<JsonObject, Sessions>({
  name: "workplace_assistant",
  className: "WorkbenchResourcesServer",
  // Tools change per-session state that a stored rollout does not carry: reverify refuses.
  reverifyMode: "unsupported",
  createState: () => new Map(),
  seedSession: {
    async handler(_body, { state, sessionId }) {
      state.set(sessionId, await freshWorkplace());
    },
  },
  tools: Object.fromEntries(Object.keys(TOOLS).map((name) => [name, toolRoute(name)])),
  verify: {
    request: { fields: { ground_truth: groundTruthField, id: py.int(), category: py.str(), environment_name: py.str() } },
    async handler(body) {
      const predicted = functionCalls(body.response as JsonObject);
      return { reward: (await sameFinalState(predicted, body.ground_truth)) ? 1 : 0 };
    },
  },
});
