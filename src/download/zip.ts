/**
 * Reading the zip archives datasets ship in (BIRD's dev.zip holds a second zip; Spider 2.0-Lite's holds .sqlite
 * files; AA-LCR's documents come as one): the central directory (ZIP64 too), stored and deflated entries streamed
 * to disk or read into memory, each with its CRC-32 and size checked. Entry names that would leave the target
 * folder are refused.
 */
import { closeSync, createReadStream, createWriteStream, mkdirSync, openSync, readSync, fstatSync, renameSync, rmSync } from "node:fs";
import { dirname, join, normalize, sep } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { crc32, createInflateRaw, inflateRawSync } from "node:zlib";
import { GymError } from "../errors.ts";

export interface ZipEntry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  headerOffset: number;
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buffer, done, length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return buffer.subarray(0, done);
}

const bad = (file: string, what: string) => new GymError("E_INPUT_ENCODING", `${file} is not a readable zip archive: ${what}.`, { hint: "Delete it so that it is downloaded again, or unpack it yourself." });

/** The archive's entries, from its central directory. */
export function zipEntries(file: string): ZipEntry[] {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const tailStart = Math.max(0, size - 65_557);
    const tail = readAt(fd, tailStart, size - tailStart);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0) throw bad(file, "no end-of-central-directory record");
    let count = tail.readUInt16LE(eocd + 10);
    let dirSize = tail.readUInt32LE(eocd + 12);
    let dirOffset = tail.readUInt32LE(eocd + 16);
    const locator = eocd - 20;
    if (locator >= 0 && tail.readUInt32LE(locator) === 0x07064b50) {
      const z64 = readAt(fd, Number(tail.readBigUInt64LE(locator + 8)), 56);
      if (z64.readUInt32LE(0) !== 0x06064b50) throw bad(file, "a broken ZIP64 record");
      count = Number(z64.readBigUInt64LE(32));
      dirSize = Number(z64.readBigUInt64LE(40));
      dirOffset = Number(z64.readBigUInt64LE(48));
    }
    const dir = readAt(fd, dirOffset, dirSize);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (dir.readUInt32LE(p) !== 0x02014b50) throw bad(file, `a broken central directory entry (#${i})`);
      const nameLength = dir.readUInt16LE(p + 28);
      const extraLength = dir.readUInt16LE(p + 30);
      const commentLength = dir.readUInt16LE(p + 32);
      const entry: ZipEntry = {
        name: dir.toString("utf8", p + 46, p + 46 + nameLength),
        method: dir.readUInt16LE(p + 10),
        crc: dir.readUInt32LE(p + 16),
        compressedSize: dir.readUInt32LE(p + 20),
        size: dir.readUInt32LE(p + 24),
        headerOffset: dir.readUInt32LE(p + 42),
      };
      // ZIP64 extra field: the 64-bit values of whichever of size, compressed size, offset overflowed, in that order.
      let e = p + 46 + nameLength;
      const extraEnd = e + extraLength;
      while (e + 4 <= extraEnd) {
        const id = dir.readUInt16LE(e);
        const length = dir.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          for (const key of ["size", "compressedSize", "headerOffset"] as const) {
            if (entry[key] === 0xffffffff && q + 8 <= e + 4 + length) {
              entry[key] = Number(dir.readBigUInt64LE(q));
              q += 8;
            }
          }
        }
        e += 4 + length;
      }
      entries.push(entry);
      p = extraEnd + commentLength;
    }
    return entries;
  } finally {
    closeSync(fd);
  }
}

/** Where an entry's bytes start, after its local header. */
function dataStart(fd: number, file: string, entry: ZipEntry): number {
  const local = readAt(fd, entry.headerOffset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) throw bad(file, `a broken local header for ${entry.name}`);
  return entry.headerOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
}

function checkMethod(file: string, entry: ZipEntry): void {
  if (entry.method !== 0 && entry.method !== 8) throw bad(file, `the entry ${entry.name} uses compression method ${entry.method} (only stored and deflate are read)`);
}

/** The files of the archive that `pick` accepts, read into memory, each checked against its CRC-32 and size. */
export function readZipFiles(file: string, pick: (name: string) => boolean = () => true): { name: string; data: Buffer }[] {
  const out: { name: string; data: Buffer }[] = [];
  const fd = openSync(file, "r");
  try {
    for (const entry of zipEntries(file)) {
      if (entry.name.endsWith("/") || !pick(entry.name)) continue;
      checkMethod(file, entry);
      const raw = readAt(fd, dataStart(fd, file, entry), entry.compressedSize);
      const data = entry.method === 8 && raw.length > 0 ? inflateRawSync(raw) : raw;
      if (data.length !== entry.size || crc32(data) >>> 0 !== entry.crc >>> 0) throw bad(file, `${entry.name} failed its CRC-32/size check`);
      out.push({ name: entry.name, data });
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/** Where an entry goes under `folder`, or undefined for a name that would leave it. */
function targetOf(folder: string, name: string): string | undefined {
  const relative = normalize(name.replace(/\\/g, "/"));
  if (relative.startsWith("..") || relative.startsWith("/") || relative.split(sep).includes("..")) return undefined;
  return join(folder, relative);
}

/**
 * Unpacks the entries `pick` accepts (it returns the path under `folder`, or null to skip). Each file is written
 * under a temporary name and renamed when its CRC-32 and size check out.
 */
export async function unzip(file: string, folder: string, pick: (name: string) => string | null = (name) => name): Promise<string[]> {
  const written: string[] = [];
  const fd = openSync(file, "r");
  try {
    for (const entry of zipEntries(file)) {
      if (entry.name.endsWith("/")) continue;
      const wanted = pick(entry.name);
      if (wanted === null) continue;
      const target = targetOf(folder, wanted);
      if (!target) throw bad(file, `the entry ${JSON.stringify(entry.name)} points outside the folder`);
      checkMethod(file, entry);
      const start = dataStart(fd, file, entry);
      mkdirSync(dirname(target), { recursive: true });
      const partial = `${target}.${process.pid}.part`;
      let crc = 0;
      let size = 0;
      const check = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          crc = crc32(chunk, crc);
          size += chunk.length;
          done(null, chunk);
        },
      });
      const source = entry.compressedSize > 0 ? createReadStream("", { fd, autoClose: false, start, end: start + entry.compressedSize - 1 }) : emptySource();
      try {
        if (entry.method === 8 && entry.compressedSize > 0) await pipeline(source, createInflateRaw(), check, createWriteStream(partial));
        else await pipeline(source, check, createWriteStream(partial));
        if (size !== entry.size || crc >>> 0 !== entry.crc >>> 0) throw bad(file, `${entry.name} failed its CRC-32/size check`);
      } catch (error) {
        rmSync(partial, { force: true });
        throw error;
      }
      renameSync(partial, target);
      written.push(target);
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

function emptySource() {
  return (async function* () {})();
}
