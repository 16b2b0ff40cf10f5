import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileError, readBytes, writeFileAtomic } from "./files.ts";
import { runtimeInfo, systemInfo } from "./info.ts";
import { serve } from "./serve.ts";
import { importFile, provideModule } from "./user-modules.ts";

const dir = () => mkdtempSync(join(tmpdir(), "gym-runtime-"));

describe("files", () => {
  test("readBytes yields the whole file in chunks; a reused buffer gives the same bytes", async () => {
    const path = join(dir(), "f.bin");
    const data = Buffer.alloc(3 * (1 << 20) + 17, 7);
    writeFileSync(path, data);
    for (const reuseBuffer of [false, true]) {
      let total = 0;
      for await (const chunk of readBytes(path, { reuseBuffer })) total += chunk.length;
      expect(total).toBe(data.length);
    }
  });

  test("fileError names the file and the fix", () => {
    expect(fileError("x.jsonl", Object.assign(new Error("no"), { code: "ENOENT" })).message).toBe("File not found: x.jsonl");
    expect(fileError("d", Object.assign(new Error("dir"), { code: "EISDIR" })).code).toBe("E_IO");
  });

  test("writeFileAtomic creates parent folders and replaces the file whole", () => {
    const path = join(dir(), "a", "b", "out.json");
    writeFileAtomic(path, "one");
    writeFileAtomic(path, "two");
    expect(readFileSync(path, "utf8")).toBe("two");
  });
});

describe("serve", () => {
  test("binds 127.0.0.1 by default, answers, and stops", async () => {
    const served = await serve(() => new Response("pong"));
    expect(served.host).toBe("127.0.0.1");
    expect(await (await fetch(`${served.url}/ping`)).text()).toBe("pong");
    await served.stop();
    await served.stop(); // twice is fine
    await expect(fetch(`${served.url}/ping`)).rejects.toThrow();
  });
});

describe("info", () => {
  test("runtime and system facts", () => {
    expect(runtimeInfo().name).toBe("bun");
    const system = systemInfo();
    expect(system.cpus).toBeGreaterThan(0);
    expect(system.memory_gb).toBeGreaterThan(0);
  });
});

describe("user modules", () => {
  test("a user's TypeScript file imports a module gym provides by a bare name", async () => {
    provideModule("gym-test/provided", { greet: (name: string) => `hello ${name}` });
    const path = join(dir(), "user.ts");
    writeFileSync(path, 'import { greet } from "gym-test/provided";\nexport default (who: string): string => greet(who);\n');
    const mod = await importFile<{ default: (who: string) => string }>(path);
    expect(mod.default("gym")).toBe("hello gym");
  });
});
