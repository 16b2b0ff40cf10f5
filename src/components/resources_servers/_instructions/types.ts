/** A checker definition: its declared parameters and a builder that turns checked kwargs into a predicate on the response. */
import type { Kwargs, ParamSpec } from "./kwargs.ts";

export interface CheckContext {
  /** The row's `prompt` (IFBench's repeat:* checkers use it). */
  prompt: string;
}

export interface CheckerDef {
  params: Record<string, ParamSpec>;
  /** `build_description(**kwargs)` takes any keyword: undeclared kwargs are ignored instead of failing the instruction. */
  openKwargs?: boolean;
  /** `build_description(**kwargs)` then `check_following`: returns the predicate. May throw (upstream raised). */
  build(kwargs: Kwargs, ctx: CheckContext): (response: string) => boolean;
}

export type Registry = Record<string, CheckerDef>;

export const none: Record<string, ParamSpec> = {};
