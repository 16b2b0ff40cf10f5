/** replay_model: answers from recorded rollouts (offline runs, verifier regression), matched by task identity and prompt. */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readBuiltinFile } from "../../../config/builtin-files.ts";
import { readJsonl } from "../../../jsonl/index.ts";
import { checkResponseCreateParams, type JsonObject } from "../../../protocol/responses.ts";
import { dumpInputItem, dumpResponse } from "../../../protocol/responses-dump.ts";
import { createGymApp, HttpFailure, readJson, validationFailure } from "../../../servers/gym-app.ts";
import type { ServerFactory } from "../../../servers/registry.ts";
import { sessionCookieName } from "../../../servers/session.ts";

export interface ReplayModelConfig {
  name?: string;
  /** The rollouts file to replay (a `gym eval run` / NeMo Gym output, one rollout per line). */
  rollouts_jsonl_fpath: string;
  /** Reported model name; default: the recorded one. */
  model?: string | null;
}

interface Recording {
  task?: unknown;
  rollout?: unknown;
  promptLength: number;
  response: JsonObject;
}

/** Prompt items in a canonical form, so `{"role","content"}` and its typed dump compare equal. */
function canonicalItems(input: unknown): JsonObject[] {
  if (typeof input === "string") return [{ content: input, role: "user", type: "message" }];
  return ((input as JsonObject[]) ?? []).map((item) => dumpInputItem(item));
}

function promptKey(items: JsonObject[]): string {
  return createHash("sha256").update(JSON.stringify(items)).digest("hex");
}

/** Rows of the recordings file: a path on disk, else a built-in data file (e.g. resources_servers/mcqa/data/example_rollouts.jsonl). */
async function* recordedRows(path: string): AsyncGenerator<unknown> {
  if (existsSync(path) || path === "-") {
    for await (const { value } of readJsonl(path)) yield value;
    return;
  }
  const builtin = await readBuiltinFile(path);
  if (builtin === undefined) {
    for await (const { value } of readJsonl(path)) yield value; // reports "file not found" with the path
    return;
  }
  for (const line of builtin.split("\n")) if (line.trim()) yield JSON.parse(line);
}

/** Loads recordings, grouped by prompt, in file order. */
export async function loadRecordings(path: string): Promise<Map<string, Recording[]>> {
  const byPrompt = new Map<string, Recording[]>();
  for await (const value of recordedRows(path)) {
    const row = value as JsonObject;
    const params = row.responses_create_params as JsonObject | undefined;
    if (!params || !row.response) continue;
    const prompt = canonicalItems(params.input);
    const key = promptKey(prompt);
    const list = byPrompt.get(key) ?? [];
    list.push({ task: row._ng_task_index, rollout: row._ng_rollout_index, promptLength: prompt.length, response: row.response as JsonObject });
    byPrompt.set(key, list);
  }
  return byPrompt;
}

const factory: ServerFactory = async (block) => {
  const config = block as unknown as ReplayModelConfig;
  if (!config.rollouts_jsonl_fpath) throw new Error("replay_model needs rollouts_jsonl_fpath: the rollouts file to replay");
  const recordings = await loadRecordings(String(config.rollouts_jsonl_fpath));
  const promptLengths = [...new Set([...recordings.values()].flat().map((r) => r.promptLength))];
  const bySession = new Map<string, Recording>();
  const nextForPrompt = new Map<string, number>();
  const app = createGymApp({ cookieName: sessionCookieName("ReplayModel", String(config.name ?? "replay_model")), rolloutPrefix: "model", modelApi: true });

  /** The recording this request continues: same session, else same task/rollout (from the rollout path prefix), else the next unused one for the prompt. */
  const pick = (items: JsonObject[], sessionId: string, url: string): Recording | undefined => {
    const known = bySession.get(sessionId);
    if (known && items.length >= known.promptLength) return known;
    for (const length of promptLengths) {
      if (length > items.length) continue;
      const key = promptKey(items.slice(0, length));
      const candidates = recordings.get(key);
      if (!candidates) continue;
      const id = /\/ng-rollout\/(\d+)-(\d+)(?:-a\d+)?\//.exec(new URL(url).pathname);
      let chosen = id ? candidates.find((r) => String(r.task) === id[1] && String(r.rollout) === id[2]) : undefined;
      if (!chosen) {
        const n = nextForPrompt.get(key) ?? 0;
        nextForPrompt.set(key, n + 1);
        chosen = candidates[n % candidates.length];
      }
      bySession.set(sessionId, chosen!);
      return chosen;
    }
    return undefined;
  };

  app.post("/v1/responses", async (c) => {
    const request = await readJson<JsonObject>(c);
    const checked = checkResponseCreateParams(request);
    if (!checked.ok) throw validationFailure(checked.error);
    const items = canonicalItems(request.input);
    const recording = pick(items, c.get("session").session_id, c.req.url);
    if (!recording) throw new HttpFailure(404, "replay_model: no recorded rollout has this prompt");
    const trajectory = (recording.response.output as JsonObject[]) ?? [];
    const position = items.length - recording.promptLength;
    if (position >= trajectory.length) throw new HttpFailure(404, "replay_model: the recorded rollout has no further turn");
    // One model turn = the recorded items up to the next tool output (which the agent produces itself).
    let end = position;
    while (end < trajectory.length && trajectory[end]!.type !== "function_call_output") end++;
    while (end < trajectory.length && trajectory[end]!.type === "function_call_output") end++;
    const turn = trajectory.slice(position, end).filter((item) => item.type !== "function_call_output");
    const last = !trajectory.slice(end).some((item) => item.type !== "function_call_output");
    const recorded = recording.response;
    return c.json(
      dumpResponse({
        ...recorded,
        model: config.model ?? recorded.model,
        output: turn,
        // Usage and stop reason belong to the rollout as a whole: reported once, on its last turn.
        usage: last ? (recorded.usage ?? null) : null,
        status: last ? (recorded.status ?? "completed") : "completed",
        incomplete_details: last ? (recorded.incomplete_details ?? null) : null,
      }),
    );
  });

  return app;
};

export default factory;
