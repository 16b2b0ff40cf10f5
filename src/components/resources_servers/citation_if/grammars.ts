/**
 * citation_if's citation grammars (NeMo Gym's GRAMMAR_TEMPLATES as data): `{IDS}` is the row's id pattern (a
 * comma-separated list of them where `multi`); group 1 holds the id(s), `claimGroup` the wrapped claim; tag
 * grammars carry their open/close markers for the balance check. `holdout` grammars are never assigned to training rows.
 */
export interface Grammar {
  template: string;
  multi: boolean;
  dotAll?: boolean;
  claimGroup?: number;
  open?: string;
  close?: string;
  holdout: boolean;
}

const CITE_OPEN = String.raw`<cite\b`;
const CITE_CLOSE = String.raw`</cite\s*>`;

export const GRAMMARS: Record<string, Grammar> = {
  cite_xml: { template: String.raw`<cite>({IDS})</cite>`, multi: true, open: CITE_OPEN, close: CITE_CLOSE, holdout: false },
  ascii_brackets: { template: String.raw`\[({IDS})\](?!\()`, multi: false, holdout: false },
  claim_wrap_xml: { template: String.raw`<cite index="({IDS})">(.*?)</cite>`, multi: true, dotAll: true, claimGroup: 2, open: CITE_OPEN, close: CITE_CLOSE, holdout: false },
  fullwidth_brackets: { template: String.raw`【({IDS})】`, multi: false, holdout: false },
  ref_colon: { template: String.raw`\[ref:({IDS})\]`, multi: false, holdout: false },
  double_angle: { template: String.raw`<<({IDS})>>`, multi: false, holdout: false },
  web_brackets: { template: String.raw`\[web:({IDS})\]`, multi: false, holdout: false },
  paren_part: { template: String.raw`\(({IDS})\)`, multi: false, holdout: false },
  markdown_footnote: { template: String.raw`\[\^({IDS})\]`, multi: false, holdout: false },
  curly_double: { template: String.raw`\{\{({IDS})\}\}`, multi: false, holdout: true },
  angle_pipe: { template: String.raw`<ref\|({IDS})>`, multi: false, holdout: true },
};

/** Any id-shaped token (a superset of every row's id pattern), matched case-insensitively. */
export const ATTEMPT_PATTERN = String.raw`citation_[A-Za-z0-9_:]+`;

/** The id pattern of a row that names none, by `id_kind`. */
export const DEFAULT_ID_PATTERN: Record<string, string> = {
  full_source: String.raw`citation_[0-9]+`,
  snippet: String.raw`citation_[0-9]+:snippet_[0-9]+`,
};

/** What the server answers to any tool call (the agent's max_steps: 1 ends the rollout, which then fails gate 0). */
export const TERMINAL_TOOL_RESPONSE = "No further tool results are available. Provide your final answer.";
