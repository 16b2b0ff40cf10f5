/**
 * scicode_agent: SciCode's multi-step generation loop (NeMo Gym's responses_api_agents/scicode_agent). For each
 * sub-step: the prompt (`prompt_fpath`'s `user` template with the previous steps and their generated code, the next
 * step's description and function header, and the dependencies) goes to the agent's own /v1/responses as
 * `{input: [user message]}` only; the reply's Python block (imports blanked) is kept as that step's code and the
 * accumulated code (dependencies, previous code, this step) is its solution. Prefilled steps give context and are not
 * scored; after a context-window error every later step is the out-of-context sentinel. Then one /verify with
 * `solutions` and the last step's response; its answer is the rollout. /aggregate_metrics is the resources server's.
 */
import { parseYaml } from "../../../config/yaml.ts";
import { readBuiltinFile } from "../../../config/builtin-files.ts";
import { existsSync, readFileSync } from "node:fs";
import { GymError } from "../../../errors.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { dumpResponse } from "../../../protocol/responses-dump.ts";
import { checkRunRequest, dumpRunRow } from "../../../protocol/run.ts";
import type { Cookies } from "../../../servers/cookies.ts";
import { createGymApp, forwardJson, validationFailure } from "../../../servers/gym-app.ts";
import { jsonRoute, routeJson } from "../../../servers/routes.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";
import type { ServerRef } from "../simple_agent/index.ts";
import { addModelCallRoute } from "../_one_call/agent.ts";
import { extractPythonScript, isContextWindowError, OUT_OF_CONTEXT, prefilledCode, problemSteps } from "./steps.ts";

export interface ScicodeAgentConfig {
  name: string;
  resources_server: ServerRef;
  model_server: ServerRef;
  prompt_fpath: string;
  with_background?: boolean;
}

/** The prompt config's `user` template: a built-in file (NeMo Gym's relative path) or one on disk. */
async function userTemplate(path: string): Promise<string> {
  const text = (await readBuiltinFile(path)) ?? (existsSync(path) ? readFileSync(path, "utf8") : undefined);
  if (text === undefined) throw new GymError("E_CONFIG", `scicode_agent: prompt_fpath '${path}' was found neither among the built-in files nor on disk.`, { hint: "Point prompt_fpath at a prompt YAML with a `user` template." });
  const user = (parseYaml(text, path) as JsonObject | null)?.user;
  if (typeof user !== "string") throw new GymError("E_CONFIG", `scicode_agent: ${path} has no string 'user' entry.`, { hint: "Add 'user: |-' with the per-step prompt." });
  return user;
}

/** Python's `str.format` for the template's three named fields (`{{`/`}}` literal). */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{|\}\}|\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (m, name: string | undefined) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    if (!(name! in values)) throw new Error(`KeyError: '${name}'`);
    return values[name!]!;
  });
}

/** The Responses object's `output_text`: every output_text part of its messages, joined. */
const outputText = (response: JsonObject) =>
  ((response.output as JsonObject[]) ?? [])
    .filter((item) => item.type === "message")
    .flatMap((item) => (item.content as JsonObject[]) ?? [])
    .filter((part) => part.type === "output_text")
    .map((part) => String(part.text))
    .join("");

const emptyResponse = (): JsonObject => dumpResponse({ id: "scicode", created_at: 0.0, model: "", object: "response", output: [], parallel_tool_calls: false, tool_choice: "auto", tools: [] });

const factory: ServerFactory = (block, context) => {
  const config = block as unknown as ScicodeAgentConfig;
  const app = createGymApp({ cookieName: sessionCookieName("ScicodeAgent", config.name), rolloutPrefix: "agent" });
  let template: Promise<string> | undefined;

  addModelCallRoute(app, context, config, { seedSession: false, promptAsMessages: true, invalidReply: "Received an invalid response from model server" });

  jsonRoute(app, "/run", async (request) => {
    const body = await routeJson(request);
    const checked = checkRunRequest(body);
    if (!checked.ok) throw validationFailure(checked.error);
    const row = checked.value as JsonObject;
    for (const [key, kind] of [["problem_id", "string"], ["required_dependencies", "string"]] as const) {
      if (typeof row[key] !== kind) throw validationFailure({ detail: [{ type: row[key] === undefined ? "missing" : "string_type", loc: ["body", key], msg: row[key] === undefined ? "Field required" : "Input should be a valid string", input: row[key] ?? body }] });
    }
    if (!Array.isArray(row.sub_steps)) throw validationFailure({ detail: [{ type: row.sub_steps === undefined ? "missing" : "list_type", loc: ["body", "sub_steps"], msg: row.sub_steps === undefined ? "Field required" : "Input should be a valid list", input: row.sub_steps ?? body }] });
    template ??= userTemplate(config.prompt_fpath);
    const user = await template;
    const problemId = row.problem_id as string;
    const subSteps = row.sub_steps as JsonObject[];
    const previous: (string | null)[] = subSteps.map(() => null);
    const solutions: Record<string, string> = {};
    let cookies: Cookies = request.cookies();
    let outOfContext = false;
    let last: JsonObject | null = null;
    const self = context.servers.get(config.name);
    for (let step = 0; step < subSteps.length; step++) {
      const prefilled = prefilledCode(problemId, step);
      if (prefilled !== undefined) {
        previous[step] = prefilled;
        continue;
      }
      const key = `${problemId}.${step + 1}`;
      if (outOfContext) {
        solutions[key] = OUT_OF_CONTEXT;
        continue;
      }
      const [stepsText, nextText, previousText] = problemSteps(subSteps, step, previous, config.with_background ?? true);
      const dependencies = row.required_dependencies as string;
      const previousCode = previousText ? `${dependencies}\n${previousText}\n` : `${dependencies}\n`;
      const content = fill(user, { problem_steps_str: stepsText, next_step_str: nextText, dependencies });
      let answer: { body: JsonObject; cookies: Cookies };
      try {
        answer = await self.call<JsonObject>("/v1/responses", { input: [{ role: "user", content }] }, { cookies, readOnlyAnswer: true });
      } catch (error) {
        if (!isContextWindowError(error)) throw error;
        process.stderr.write(`SciCode step ${step}: context window exceeded; failing remaining steps.\n`);
        outOfContext = true;
        solutions[key] = OUT_OF_CONTEXT;
        continue;
      }
      cookies = answer.cookies;
      last = answer.body;
      const extracted = extractPythonScript(outputText(answer.body));
      previous[step] = extracted;
      solutions[key] = `${previousCode}\n${extracted}`;
    }
    const verifyBody: JsonObject = { ...dumpRunRow(row), solutions, response: last ?? emptyResponse() };
    const verified = await context.servers.get(config.resources_server.name).call<JsonObject>("/verify", verifyBody, { cookies, readOnlyAnswer: true });
    return { json: verified.body };
  });

  app.post("/aggregate_metrics", (c) => forwardJson(c, context.servers.get(config.resources_server.name), "/aggregate_metrics"));
  return app;
};

export default factory;
