/**
 * Scores one row: every instruction checked on the response (strict) and on upstream's loose variants, with
 * row problems (unknown id, bad kwargs, mismatched lists) raised as RowError for a 422 that names the field.
 */
import { pyStrip } from "../_python/text.ts";
import { checkKwargs, KwargsError } from "./kwargs.ts";
import type { Registry } from "./types.ts";

/** A problem with the row itself: `loc` is the path under the request body. */
export class RowError extends Error {
  constructor(
    readonly loc: (string | number)[],
    message: string,
    readonly input: unknown,
  ) {
    super(message);
  }
}

/**
 * Upstream's loose variants (google-research evaluation_lib, IFBench evaluation_lib): the response, without
 * asterisks, without its first line, its last line, or both, and those three without asterisks.
 */
export function looseVariants(response: string): string[] {
  const lines = response.split("\n");
  const removeFirst = pyStrip(lines.slice(1).join("\n"));
  const removeLast = pyStrip(lines.slice(0, -1).join("\n"));
  const removeBoth = pyStrip(lines.slice(1, -1).join("\n"));
  const noStars = (s: string) => s.replaceAll("*", "");
  return [response, noStars(response), removeFirst, removeLast, removeBoth, noStars(removeFirst), noStars(removeLast), noStars(removeBoth)];
}

export interface Scored {
  strict: boolean[];
  loose: boolean[];
}

export interface ScoreOptions {
  /** Where the row keeps the fields (for error locations), e.g. ["verifier_metadata"] or []. */
  base: (string | number)[];
  /** IFBench: a blank response fails every instruction without running a checker. */
  blankFailsAll?: boolean;
  /** Called when a checker raised (upstream logs it and counts the instruction as not followed). */
  onCheckerError?(instructionId: string, error: unknown): void;
}

function follows(check: (r: string) => boolean, text: string, id: string, options: ScoreOptions): boolean {
  try {
    return check(text) === true;
  } catch (error) {
    options.onCheckerError?.(id, error);
    return false;
  }
}

/** Checks every instruction of a row. */
export function scoreInstructions(
  registry: Registry,
  ids: unknown,
  kwargsList: unknown,
  prompt: string,
  response: string,
  options: ScoreOptions,
): Scored {
  const { base } = options;
  if (!Array.isArray(ids) || !ids.every((x) => typeof x === "string")) throw new RowError([...base, "instruction_id_list"], "Input should be a valid list of strings", ids);
  if (!Array.isArray(kwargsList)) throw new RowError([...base, "kwargs"], "Input should be a valid list", kwargsList);
  if (kwargsList.length !== ids.length) {
    throw new RowError([...base, "kwargs"], `kwargs has ${kwargsList.length} entries for ${ids.length} instruction ids (one each is expected)`, kwargsList);
  }
  const checks = ids.map((id, i) => {
    const def = registry[id];
    if (!def) throw new RowError([...base, "instruction_id_list", i], `Unknown instruction id '${id}'`, id);
    let checked;
    try {
      checked = checkKwargs(def.params, kwargsList[i]);
    } catch (error) {
      if (!(error instanceof KwargsError)) throw error;
      throw new RowError([...base, "kwargs", i, ...(error.param ? [error.param] : [])], `${id}: ${error.message}`, error.input);
    }
    if (checked.unknown.length > 0 && !def.openKwargs) {
      // build_description(**kwargs) raises TypeError upstream: the instruction is not followed.
      return () => false;
    }
    try {
      return def.build(checked.kwargs, { prompt });
    } catch (error) {
      if (error instanceof KwargsError) throw new RowError([...base, "kwargs", i, ...(error.param ? [error.param] : [])], `${id}: ${error.message}`, error.input);
      options.onCheckerError?.(id, error);
      return () => false;
    }
  });
  const blank = !pyStrip(response);
  if (options.blankFailsAll && blank) return { strict: checks.map(() => false), loose: checks.map(() => false) };
  const variants = looseVariants(response);
  const strict: boolean[] = [];
  const loose: boolean[] = [];
  checks.forEach((check, i) => {
    const id = ids[i] as string;
    const s = follows(check, response, id, options);
    strict.push(s);
    // A variant counts only when it is not blank (`if r.strip() and check_following(r)`), the response included.
    loose.push((!blank && s) || variants.slice(1).some((v) => pyStrip(v) !== "" && follows(check, v, id, options)));
  });
  return { strict, loose };
}

/** binary: all followed; fraction: the share followed (0 for no instruction). */
export function gradeReward(list: boolean[], mode: string): number {
  if (mode === "binary") return list.every(Boolean) ? 1 : 0;
  return list.length ? list.filter(Boolean).length / list.length : 0;
}
