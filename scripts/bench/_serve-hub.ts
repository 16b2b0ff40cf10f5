/** Serves one generated file through the fake Hub (LFS redirect, sha256 ETag) and prints its URL; for download.ts. */
import { startHubServer } from "../../src/testing/hub-server.ts";

const mb = Number(process.argv[2] ?? 256);
const bytes = new Uint8Array(mb << 20);
for (let i = 0; i < bytes.length; i += 4096) bytes[i] = (i >> 12) & 0xff;
const hub = await startHubServer();
hub.addFile("bench/data", "train.jsonl", bytes);
console.log(hub.url);
