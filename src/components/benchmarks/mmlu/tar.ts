/** The regular files of a tar archive (ustar, GNU long names, pax `path`), in archive order, as Python's tarfile lists them. */

export interface TarFile {
  name: string;
  data: Uint8Array;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0) === -1 ? bytes.length : bytes.indexOf(0)));
const octal = (bytes: Uint8Array) => Number.parseInt(text(bytes).trim() || "0", 8);

/** Reads every member; throws on a header whose checksum is wrong (a truncated or non-tar file). */
export function tarFiles(archive: Uint8Array): TarFile[] {
  const files: TarFile[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const stored = octal(header.subarray(148, 156));
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
    if (sum !== stored) throw new Error(`not a tar archive (bad header checksum at byte ${offset})`);
    const size = octal(header.subarray(124, 136));
    const type = String.fromCharCode(header[156]!);
    const body = archive.subarray(offset + 512, offset + 512 + size);
    if (body.length < size) throw new Error(`truncated tar archive (member at byte ${offset} needs ${size} bytes)`);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = text(body);
      continue;
    }
    if (type === "x") {
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(new TextDecoder().decode(body));
      if (path) longName = path[1];
      continue;
    }
    const prefix = text(header.subarray(345, 500));
    const name = longName ?? (prefix ? `${prefix}/${text(header.subarray(0, 100))}` : text(header.subarray(0, 100)));
    longName = undefined;
    if (type === "0" || type === "\0" || type === "7") files.push({ name, data: body });
  }
  return files;
}
