/** Parquet files (Hugging Face datasets' format) read as an async iterator of JSON-ready rows, one row group in memory at a time. */
import * as fs from "node:fs";
import { type AsyncBuffer, parquetMetadataAsync, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { GymError } from "../errors.ts";

/** An AsyncBuffer over a local file with plain positioned reads (works the same under Bun and Deno). */
function fileBuffer(path: string): AsyncBuffer & { close(): void } {
  const fd = fs.openSync(path, "r");
  const size = fs.fstatSync(fd).size;
  return {
    byteLength: size,
    slice(start: number, end?: number) {
      const stop = Math.min(end ?? size, size);
      const out = new Uint8Array(Math.max(stop - start, 0));
      let done = 0;
      while (done < out.length) {
        const n = fs.readSync(fd, out, done, out.length - done, start + done);
        if (n === 0) break;
        done += n;
      }
      return out.buffer;
    },
    close: () => fs.closeSync(fd),
  };
}

/** JSON has no BigInt or Date: int64 becomes a number (as pandas' to_json writes it), a timestamp its ISO text. */
function jsonReady(value: unknown): unknown {
  if (typeof value === "bigint") return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Array.from(value);
  if (Array.isArray(value)) return value.map(jsonReady);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = jsonReady(v);
    return out;
  }
  return value;
}

export interface ParquetRowsOptions {
  /** Only these top-level columns (default all). */
  columns?: string[];
}

/** The number of rows a Parquet file holds, from its footer. */
export async function parquetRowCount(path: string): Promise<number> {
  const file = open(path);
  try {
    return Number((await parquetMetadataAsync(file)).num_rows);
  } finally {
    file.close();
  }
}

function open(path: string) {
  try {
    return fileBuffer(path);
  } catch (error) {
    throw new GymError("E_INPUT_NOT_FOUND", `Cannot open the Parquet file ${path}: ${(error as Error).message}`, { hint: "Check the path, or download it again.", cause: error });
  }
}

/**
 * Yields the rows of a Parquet file in order, as plain objects whose values JSON.stringify accepts.
 * Snappy, gzip, zstd, brotli and lz4 pages are read (hyparquet-compressors).
 */
export async function* readParquetRows(path: string, options: ParquetRowsOptions = {}): AsyncGenerator<Record<string, unknown>> {
  const file = open(path);
  try {
    let metadata;
    try {
      metadata = await parquetMetadataAsync(file);
    } catch (error) {
      throw new GymError("E_INPUT_SCHEMA", `${path} is not a readable Parquet file: ${(error as Error).message}`, { hint: "A partial or corrupted download? Delete it and download again.", cause: error });
    }
    let rowStart = 0;
    for (const group of metadata.row_groups) {
      const rowEnd = rowStart + Number(group.num_rows);
      const rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd, compressors, columns: options.columns });
      for (const row of rows) yield jsonReady(row) as Record<string, unknown>;
      rowStart = rowEnd;
    }
  } finally {
    file.close();
  }
}
