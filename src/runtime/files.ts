/** Byte-level file and stdio access: the one place that knows how this runtime reads and writes files. */
import * as fs from "node:fs";
import * as path from "node:path";
import { GymError } from "../errors.ts";

const CHUNK_BYTES = 1 << 20;

/**
 * Reads a file (or stdin for "-") as a stream of byte chunks, in constant memory. With `reuseBuffer`, a
 * file's chunks share one buffer: each is valid only until the next is requested (for a consumer that
 * decodes or hashes each chunk at once); otherwise every chunk is its own.
 */
export async function* readBytes(source: string, options: { reuseBuffer?: boolean } = {}): AsyncGenerator<Uint8Array> {
  if (source === "-") {
    for await (const chunk of process.stdin as AsyncIterable<Uint8Array>) yield chunk;
    return;
  }
  let fd: number;
  try {
    fd = fs.openSync(source, "r");
  } catch (error) {
    throw fileError(source, error);
  }
  try {
    let buffer = new Uint8Array(CHUNK_BYTES);
    for (;;) {
      if (!options.reuseBuffer) buffer = new Uint8Array(CHUNK_BYTES);
      const n = fs.readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (n === 0) return;
      yield n === CHUNK_BYTES ? buffer : buffer.subarray(0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Turns a Node-style fs error into a GymError that names the file and the fix. */
export function fileError(file: string, error: unknown): GymError {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT") {
    return new GymError("E_INPUT_NOT_FOUND", `File not found: ${file}`, {
      hint: `Check the path (relative paths start at ${process.cwd()}).`,
      cause: error,
    });
  }
  if (code === "EISDIR") return new GymError("E_IO", `Expected a file but found a directory: ${file}`, { cause: error });
  if (code === "EACCES" || code === "EPERM") {
    return new GymError("E_IO", `Permission denied: ${file}`, { hint: "Check the file's permissions.", cause: error });
  }
  return new GymError("E_IO", `Cannot access ${file}: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}

/** A sink for bytes: a file descriptor opened for appending, or stdout. */
export interface ByteSink {
  write(data: string): Promise<void>;
  /** Forces what was written to reach the OS (files) — a kill after this loses nothing. */
  close(): Promise<void>;
}

/** Opens a file for appending (created with its parent folders if missing), or stdout for "-". */
export function openAppendSink(target: string, options: { truncate?: boolean } = {}): ByteSink {
  if (target === "-") return stdoutSink();
  try {
    fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    const fd = fs.openSync(target, options.truncate ? "w" : "a");
    return {
      async write(data) {
        writeAllSync(fd, data);
      },
      async close() {
        fs.closeSync(fd);
      },
    };
  } catch (error) {
    throw fileError(target, error);
  }
}

function writeAllSync(fd: number, data: string): void {
  // One write of the string is the usual case; a short write (rare on regular files) falls back to bytes.
  const written = fs.writeSync(fd, data);
  const total = Buffer.byteLength(data);
  if (written === total) return;
  const bytes = Buffer.from(data, "utf8");
  let offset = written;
  while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
}

/** The exit status of a process killed by SIGPIPE (128 + 13), as `yes | head` leaves it. */
const EXIT_BROKEN_PIPE = 141;

/**
 * stdout as a sink, written with plain write(2) calls: ordered, complete before the promise resolves, and
 * free of stream buffering. When the reader goes away (`gym … | head`), the process ends quietly with 141,
 * as a Unix filter killed by SIGPIPE would, instead of computing output nobody reads.
 */
export function stdoutSink(): ByteSink {
  return {
    async write(data) {
      let bytes: Buffer | undefined;
      let offset = 0;
      for (;;) {
        try {
          if (bytes === undefined) {
            const n = fs.writeSync(1, data);
            if (n === Buffer.byteLength(data)) return;
            bytes = Buffer.from(data, "utf8");
            offset = n;
          } else {
            offset += fs.writeSync(1, bytes, offset, bytes.length - offset);
            if (offset >= bytes.length) return;
          }
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EAGAIN") await new Promise((resolve) => setTimeout(resolve, 1));
          else if (code === "EPIPE") process.exit(EXIT_BROKEN_PIPE);
          else throw error;
        }
      }
    },
    async close() {},
  };
}

/** Writes a whole file atomically: a temporary file beside it, flushed, then renamed over it. */
export function writeFileAtomic(target: string, data: string): void {
  const dir = path.dirname(path.resolve(target));
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = fs.openSync(tmp, "w");
    try {
      writeAllSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, target);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw fileError(target, error);
  }
}
