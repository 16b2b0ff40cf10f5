/**
 * swe_pivot: PivotRL's verifier for one coding-agent step (NeMo Gym's `swe_pivot`), no judge. The response's first
 * function call is compared with the expected one in layers: the tool (by name or category), its target (editor
 * sub-command, file, view range; a shell command's verb, paths and a similarity floor), the arguments' similarity
 * (difflib ratio, capped at 2,000 characters), and in continuous mode partial credit and a penalty for large edits.
 */
import { pyFloat, stringifyPython } from "../../../metrics/pyjson.ts";
import type { JsonObject } from "../../../protocol/responses.ts";
import { defineResourcesServer, py } from "../../../servers/resources/index.ts";
import { sequenceRatio } from "../../../text/difflib.ts";
import { pyJsonLoads, pyStr } from "../_python/values.ts";
import { pyLen, pyPrefix } from "../_python/text.ts";
import { command, commandPaths, commandVerb, editContent, editorCommand, filePath, get, parseArguments, pathSuffix, toolCategory, viewRange, type Args } from "./tools.ts";

export interface SwePivotConfig extends JsonObject {
  reward_mode: string;
  enable_target_match: boolean;
  enable_argument_similarity: boolean;
  similarity_threshold: number;
  similarity_full_credit: number;
  enable_diff_size_shaping: boolean;
  diff_size_alpha: number;
}

const MAX_SIMILARITY_CHARS = 2000;
const BASH_TARGET_SIMILARITY_FLOOR = 0.3;

/** difflib.SequenceMatcher(None, a[:2000], b[:2000]).ratio(), over code points. */
export function cappedSimilarity(a: string, b: string): number {
  return sequenceRatio(Array.from(pyPrefix(a, MAX_SIMILARITY_CHARS)), Array.from(pyPrefix(b, MAX_SIMILARITY_CHARS)));
}

/** Level 0: the same tool by name (case-insensitive) or a shared known category. */
export function toolNameMatch(rName: string, rCat: string, eName: string, eCat: string): boolean {
  return rName.toLowerCase() === eName.toLowerCase() || (rCat === eCat && rCat !== "unknown");
}

/** Level 1: the same target. */
export function targetMatch(rCat: string, r: Args, eCat: string, e: Args): boolean {
  if (rCat === "edit" && eCat === "edit") {
    const [rc, ec] = [editorCommand(r), editorCommand(e)];
    if (rc && ec && rc !== ec) return false;
    const [rf, ef] = [filePath(r), filePath(e)];
    if (rf && ef && pathSuffix(rf, 2) !== pathSuffix(ef, 2)) return false;
    if (rc === "view" && ec === "view") {
      const [rr, er] = [viewRange(get(r, "view_range")), viewRange(get(e, "view_range"))];
      if (rr && er) {
        const overlap = Math.max(0, Math.min(rr[1], er[1]) - Math.max(rr[0], er[0]));
        if (overlap / Math.max(1, er[1] - er[0]) < 0.8) return false;
      }
    }
    return true;
  }
  if (rCat === "bash" && eCat === "bash") {
    const [rc, ec] = [command(r), command(e)];
    const [rv, ev] = [commandVerb(rc), commandVerb(ec)];
    if (rv && ev && rv !== ev) return false;
    const [rp, ep] = [commandPaths(rc), commandPaths(ec)];
    if (rp.length && ep.length) {
      const suffixes = (ps: string[]) => new Set(ps.map((p) => pathSuffix(p.replace(/\/+$/, ""))).filter((s) => s !== ""));
      const [rs, es] = [suffixes(rp), suffixes(ep)];
      if (rs.size && es.size && ![...rs].some((s) => es.has(s))) return false;
    }
    if (rc && ec && cappedSimilarity(rc, ec) < BASH_TARGET_SIMILARITY_FLOOR) return false;
    return true;
  }
  if ((rCat === "search" || rCat === "read") && (eCat === "search" || eCat === "read")) {
    const [rf, ef] = [filePath(r), filePath(e)];
    return rf && ef ? pathSuffix(rf) === pathSuffix(ef) : true;
  }
  return true;
}

/** Level 2: how similar the arguments are (1 where not applicable). */
export function argumentSimilarity(rCat: string, r: Args, eCat: string, e: Args): number {
  if (rCat === "edit" && eCat === "edit") {
    const s = (args: Args, key: string) => pyStr(get(args, key, ""));
    const [rOld, eOld, rNew, eNew] = [s(r, "old_str"), s(e, "old_str"), s(r, "new_str"), s(e, "new_str")];
    if ((rOld || rNew) && (eOld || eNew)) {
      const sim = (a: string, b: string) => (a && b ? cappedSimilarity(a, b) : a === b ? 1 : 0);
      return Math.min(sim(rOld, eOld), sim(rNew, eNew));
    }
    const [rc, ec] = [editContent(r), editContent(e)];
    if (rc && ec) return cappedSimilarity(rc, ec);
    return Boolean(rc) !== Boolean(ec) ? 0 : 1;
  }
  if (rCat === "bash" && eCat === "bash") {
    const [rc, ec] = [command(r), command(e)];
    return rc && ec ? cappedSimilarity(rc, ec) : 1;
  }
  return 1;
}

/** Level 4: up to `alpha` for an edit of 500 characters or more. */
export function diffSizePenalty(rCat: string, r: Args, alpha: number): number {
  if (rCat !== "edit") return 0;
  const content = editContent(r);
  return content ? alpha * Math.min(pyLen(content) / 500, 1) : 0;
}

const isDict = (x: unknown): x is JsonObject => x !== null && typeof x === "object" && !Array.isArray(x);

/** The expected call: `expected_action`, else `expected_answer` as JSON, else `metadata.expected_action`. */
function expectedCall(body: JsonObject): { name: unknown; arguments: unknown } | undefined {
  const take = (ea: JsonObject) => {
    if (!Object.hasOwn(ea, "name")) throw new Error("KeyError: 'name'");
    return { name: ea.name, arguments: Object.hasOwn(ea, "arguments") ? ea.arguments : "" };
  };
  const action = body.expected_action as JsonObject | null;
  if (action && Object.keys(action).length && action.type === "function_call") return take(action);
  if (body.expected_answer) {
    try {
      const ea = pyJsonLoads(body.expected_answer as string);
      if (isDict(ea) && ea.type === "function_call" && Object.hasOwn(ea, "name")) return take(ea);
    } catch {
      // not JSON: try metadata
    }
  }
  const meta = body.metadata as JsonObject | null;
  if (meta && Object.keys(meta).length) {
    const ea = meta.expected_action;
    if (isDict(ea) && ea.type === "function_call") return take(ea);
  }
  return undefined;
}

function firstCall(response: JsonObject): { name: unknown; arguments: unknown } | undefined {
  const item = ((Array.isArray(response.output) ? response.output : []) as JsonObject[]).find((o) => o?.type === "function_call");
  return item ? { name: item.name ?? "", arguments: item.arguments ?? "" } : undefined;
}

export default defineResourcesServer<SwePivotConfig>({
  name: "swe_pivot",
  className: "SwePivotResourcesServer",
  config: {
    fields: {
      reward_mode: py.withDefault(py.str(), () => "binary"),
      enable_target_match: py.withDefault(py.bool(), () => true),
      enable_argument_similarity: py.withDefault(py.bool(), () => true),
      similarity_threshold: py.withDefault(py.float(), () => 0.4),
      similarity_full_credit: py.withDefault(py.float(), () => 0.8),
      enable_diff_size_shaping: py.withDefault(py.bool(), () => true),
      diff_size_alpha: py.withDefault(py.float(), () => 0.1),
    },
  },
  verify: {
    request: {
      fields: { uuid: py.optional(py.any()), expected_answer: py.optional(py.str()), expected_action: py.optional(py.dict()), metadata: py.optional(py.dict()) },
      extra: "allow",
    },
    response: ["uuid", "expected_answer", "model_output", "tool_name_match", "target_match", "similarity_score", "diff_size_penalty", "failure_reason", "metadata"],
    handler(body, { config }) {
      let reward = 0;
      let failure = "none";
      let nameMatch = false;
      let target: boolean | null = null;
      let similarity: number | null = null;
      let penalty: number | null = null;
      let output = "";
      const done = () => ({
        reward,
        uuid: body.uuid,
        expected_answer: (body.expected_answer as string | null) || "",
        model_output: output,
        tool_name_match: nameMatch,
        target_match: target,
        similarity_score: similarity === null ? null : pyFloat(similarity),
        diff_size_penalty: penalty === null ? null : pyFloat(penalty),
        failure_reason: failure,
        metadata: body.metadata,
      });
      try {
        const expected = expectedCall(body);
        if (!expected) return (failure = "expected_action_invalid"), done();
        const eName = expected.name as string;
        const eCat = toolCategory(eName);
        const eArgs = parseArguments(expected.arguments);
        const call = firstCall(body.response as JsonObject);
        if (!call) return (failure = "model_output_invalid"), (output = "(no function_call in response)"), done();
        const rName = call.name as string;
        const rCat = toolCategory(rName);
        const rArgs = parseArguments(call.arguments);
        output = `${rName}(${pyPrefix(stringifyPython(rArgs, { spaced: true, ensureAscii: true }), 500)})`;
        nameMatch = toolNameMatch(rName, rCat, eName, eCat);
        if (!nameMatch) return (failure = "tool_name_mismatch"), done();
        reward = 1;
        if (config.enable_target_match) {
          target = targetMatch(rCat, rArgs, eCat, eArgs);
          if (!target) return (reward = 0), (failure = "target_mismatch"), done();
        }
        if (config.enable_argument_similarity) {
          similarity = argumentSimilarity(rCat, rArgs, eCat, eArgs);
          const [t, f] = [config.similarity_threshold, config.similarity_full_credit];
          if (similarity >= f) reward = 1;
          else if (config.reward_mode !== "binary" && similarity >= t) reward = 0.5 + (0.5 * (similarity - t)) / (f - t);
          else return (failure = "similarity_below_threshold"), (reward = 0), done();
        }
        if (config.enable_diff_size_shaping && config.reward_mode === "continuous") {
          penalty = diffSizePenalty(rCat, rArgs, config.diff_size_alpha);
          reward *= 1 - penalty;
        }
      } catch {
        failure = "unknown_error";
        reward = 0;
      }
      return done();
    },
  },
});
