/**
 * The run's Batch API journal (`<rollouts stem>_batches.jsonl` beside the rollouts): before a batch is created, one
 * line with its idempotency key and every request it holds (custom_id, task, rollout); once the provider answers,
 * one line with the batch id. Each line is handed to the OS before the next step, so a `kill -9` anywhere leaves
 * enough to re-attach (by id, or by the key in the batch's metadata) instead of submitting again.
 */
import { existsSync, readFileSync } from "node:fs";
import { JsonlAppender } from "../../../jsonl/write.ts";
import { runPaths } from "../../../outputs/paths.ts";

export interface JournaledRequest {
  custom_id: string;
  task: string | null;
  rollout: string | null;
}

/** What the journal knows of one batch. */
export interface JournaledBatch {
  key: string;
  requests: JournaledRequest[];
  batchId?: string;
}

type Line = { event: "submitting"; key: string; requests: JournaledRequest[] } | { event: "created"; key: string; batch_id: string };

export class BatchJournal {
  private appender: JsonlAppender | undefined;

  constructor(readonly path: string) {}

  /** The batches recorded so far, in order (a torn last line, from a kill mid-write, is ignored). */
  read(): JournaledBatch[] {
    if (!existsSync(this.path)) return [];
    const batches = new Map<string, JournaledBatch>();
    for (const text of readFileSync(this.path, "utf8").split("\n")) {
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch {
        continue;
      }
      if (line.event === "submitting") batches.set(line.key, { key: line.key, requests: line.requests });
      else if (line.event === "created" && batches.has(line.key)) batches.get(line.key)!.batchId = line.batch_id;
    }
    return [...batches.values()];
  }

  submitting(key: string, requests: JournaledRequest[]): Promise<void> {
    return this.append({ event: "submitting", key, requests });
  }

  created(key: string, batchId: string): Promise<void> {
    return this.append({ event: "created", key, batch_id: batchId });
  }

  async close(): Promise<void> {
    await this.appender?.close();
    this.appender = undefined;
  }

  private append(line: Line): Promise<void> {
    this.appender ??= JsonlAppender.open(this.path);
    return this.appender.write(line);
  }
}

/** The journal beside a rollouts file: `results/rollouts.jsonl` → `results/rollouts_batches.jsonl`. */
export function batchJournalPath(rolloutsPath: string): string {
  return runPaths(rolloutsPath).batchJournal;
}
