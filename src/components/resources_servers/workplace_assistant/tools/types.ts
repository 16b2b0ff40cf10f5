/** One session's workplace: the seeded tables the tools read and change. */
import type { Table } from "../table.ts";

export interface WorkplaceState {
  directory: Table;
  emails: Table;
  calendar: Table;
  analytics: Table;
  plots: Table;
  tasks: Table;
  crm: Table;
}

/** A tool: its Python keyword parameters with their defaults, and what it does to the state. */
export interface ToolFunction {
  params: Record<string, unknown>;
  run(state: WorkplaceState, args: Record<string, unknown>): unknown;
}

export type Toolkit = Record<string, ToolFunction>;
