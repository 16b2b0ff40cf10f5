/** Byte-level file and stdio access: the one place that knows how this runtime reads and writes files. */
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fsError, type GymError } from "../errors.ts";

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
  if (isStream(source)) {
    yield* readStream(source);
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
      let n: number;
      try {
        n = fs.readSync(fd, buffer, 0, CHUNK_BYTES, null);
      } catch (error) {
        throw fileError(source, error);
      }
      if (n === 0) return;
      yield n === CHUNK_BYTES ? buffer : buffer.subarray(0, n);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** A path that is a FIFO, a pipe (`<(…)`, /dev/fd/N), a socket or a character device: readable once, never by position. */
export function isStream(source: string): boolean {
  if (source === "-") return true;
  try {
    const stat = fs.statSync(source);
    return stat.isFIFO() || stat.isCharacterDevice() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * Reads a FIFO or pipe once, in order. Its open() blocks until a writer appears, so it is made off the main
 * thread: Ctrl-C and SIGTERM still land (and end the process) while it waits.
 */
async function* readStream(source: string): AsyncGenerator<Uint8Array> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(source, "r");
  } catch (error) {
    throw fileError(source, error);
  }
  try {
    for (;;) {
      const buffer = new Uint8Array(CHUNK_BYTES);
      let n: number;
      try {
        ({ bytesRead: n } = await handle.read(buffer, 0, CHUNK_BYTES, null));
      } catch (error) {
        throw fileError(source, error);
      }
      if (n === 0) return;
      yield buffer.subarray(0, n);
    }
  } finally {
    await handle.close();
  }
}

const spools = new Set<string>();

/**
 * For a stage that reads its input more than once or by position: a FIFO, a pipe or stdin ("-") is copied
 * once to a private temporary folder, removed by `cleanup()` and in any case when the process exits. A
 * regular file is returned as it is.
 */
export async function spoolIfStream(source: string, name = "input.jsonl"): Promise<{ path: string; spooled: boolean; cleanup: () => void }> {
  if (!isStream(source)) return { path: source, spooled: false, cleanup: () => {} };
  const dir = fs.mkdtempSync(path.join(tmpdir(), "gym-spool-"));
  spools.add(dir);
  if (spools.size === 1) process.once("exit", () => spools.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const cleanup = () => {
    fs.rmSync(dir, { recursive: true, force: true });
    spools.delete(dir);
  };
  const file = path.join(dir, name);
  try {
    const fd = fs.openSync(file, "w");
    try {
      for await (const chunk of readBytes(source)) writeAllBytes(fd, chunk, file);
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    cleanup();
    throw error;
  }
  return { path: file, spooled: true, cleanup };
}

function writeAllBytes(fd: number, bytes: Uint8Array, file: string): void {
  try {
    let offset = 0;
    while (offset < bytes.length) offset += fs.writeSync(fd, bytes, offset, bytes.length - offset);
  } catch (error) {
    throw fileError(file, error);
  }
}

/** Turns a Node-style fs error into a GymError that names the file and the fix (errors.ts has the one table). */
export function fileError(file: string, error: unknown): GymError {
  return fsError(error, file);
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

function writeAllSync(fd: number, data: string | Uint8Array): void {
  // One write is the usual case; a short write (rare on regular files) goes on from where it stopped.
  const written = typeof data === "string" ? fs.writeSync(fd, data) : fs.writeSync(fd, data, 0, data.length);
  const total = typeof data === "string" ? Buffer.byteLength(data) : data.length;
  if (written === total) return;
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
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
export function writeFileAtomic(target: string, data: string | Uint8Array | Iterable<string>): void {
  const dir = path.dirname(path.resolve(target));
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw fileError(target, error);
  }
  removeStaleTemps(target);
  const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = fs.openSync(tmp, "w");
    try {
      // Pieces (a big file made in parts) are written as they come: the whole text is never one string.
      if (typeof data === "string" || data instanceof Uint8Array) writeAllSync(fd, data);
      else for (const piece of data) writeAllSync(fd, piece);
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

const swept = new Set<string>();

/**
 * Removes the temporary files (`.<name>.<pid>.<n>.tmp`) that a killed writer of `target` left beside it: those
 * whose process is gone. Done once per target and process, before its first write.
 */
export function removeStaleTemps(target: string): void {
  const full = path.resolve(target);
  if (swept.has(full)) return;
  swept.add(full);
  const dir = path.dirname(full);
  const prefix = `.${path.basename(full)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const pid = Number(/^(\d+)\./.exec(name.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || processAlive(pid)) continue;
    fs.rmSync(path.join(dir, name), { force: true });
  }
}

/** Whether a process with this pid exists (on this host). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
