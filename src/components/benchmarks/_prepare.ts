/** The contract of a benchmark's `prepare.ts`: what `gym eval prepare` hands it, and what it returns. */

/** What a prepare step receives. I/O goes through these functions so a benchmark needs no imports of its own. */
export interface PrepareContext {
  /** Absolute path of the dataset's `jsonl_fpath`: the file to write, and the path to return. */
  outputPath: string;
  /** `prepare_script_args` from the config (`+prepare_script_args={num_problems: 20}`). */
  args: Record<string, unknown>;
  /** Text of a file of a Hugging Face repo, through HF_ENDPOINT with HF_TOKEN, cached; a clear error offline. */
  download(repoId: string, file: string, options?: { revision?: string; repoType?: "datasets" | "models" }): Promise<string>;
  /** Writes rows as JSONL (atomically: a temporary file renamed at the end). */
  writeRows(path: string, rows: Iterable<Record<string, unknown>>): Promise<void>;
  /** Progress for the user (stderr). */
  log(line: string): void;
}

/** A prepare step: writes the benchmark's JSONL and returns the path it wrote (must equal `outputPath`). */
export type PrepareFn = (context: PrepareContext) => Promise<string>;
