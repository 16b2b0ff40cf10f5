import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GymError } from "../errors.ts";
import { bwrapArgv } from "./bwrap-args.ts";
import { detectPython, detectSandbox, openSandbox, sandboxMode } from "./index.ts";
import { resetSandboxDetection } from "./detect.ts";

const hasBwrap = (await detectSandbox()).kind === "bwrap";
const python = await detectPython();
if (!hasBwrap || !python) console.warn("skip: sandbox run tests because bubblewrap or python3 is not available (apt-get install bubblewrap)");
const sandboxed = hasBwrap && python ? test : test.skip;

const runPy = async (code: string, limits = {}) => {
  const sandbox = await openSandbox();
  return sandbox.run({ argv: [python!.executable, "/sandbox/p.py"], files: { "p.py": code }, readOnlyRoots: python!.roots, limits: { wallSeconds: 10, ...limits } });
};

describe("sandbox: the command line", () => {
  test("as root: no user namespace (it would map nobody back to root), caps only for setpriv, which drops to 65534", () => {
    const prefix = join(mkdtempSync(join(tmpdir(), "gym-py-")), "py", "3.11");
    mkdirSync(prefix, { recursive: true });
    const argv = bwrapArgv({ bwrap: "/usr/bin/bwrap", setpriv: "/usr/bin/setpriv", readOnlyRoots: [prefix], binds: [], tmpBytes: 1024, env: {}, argv: [`${prefix}/bin/python3`] });
    expect(argv).not.toContain("--unshare-user");
    for (const flag of ["--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session", "--clearenv"]) expect(argv).toContain(flag);
    const setpriv = argv.indexOf("/usr/bin/setpriv");
    expect(argv.slice(setpriv, setpriv + 3)).toEqual(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534"]);
    const parent = join(prefix, "..");
    expect(argv.slice(argv.indexOf(parent) - 3, argv.indexOf(parent) + 1)).toEqual(["--perms", "0755", "--dir", parent]);
    expect(argv.indexOf("--tmpfs")).toBeLessThan(argv.indexOf(prefix));
    // Home folders, the work tree and the host /tmp are never bound.
    for (const hidden of ["/root", "/home", "/work", "/var"]) expect(argv).not.toContain(hidden);
  });

  test("unprivileged: a user namespace and every capability dropped, no setpriv", () => {
    const argv = bwrapArgv({ bwrap: "bwrap", setpriv: null, readOnlyRoots: [], binds: [], tmpBytes: 1024, env: {}, argv: ["/usr/bin/python3"] });
    expect(argv).toContain("--unshare-user");
    expect(argv.slice(-4)).toEqual(["--cap-drop", "ALL", "--", "/usr/bin/python3"]);
  });

  test("a writable bind (a Harbor task's workdir) is --bind, the others --ro-bind; --chdir follows cwd", () => {
    const argv = bwrapArgv({ bwrap: "bwrap", setpriv: null, readOnlyRoots: [], binds: [{ host: "/h/work", path: "/app", writable: true }, { host: "/h/tests", path: "/tests" }], cwd: "/app", tmpBytes: 1024, env: {}, argv: ["/bin/bash"] });
    expect(argv.slice(argv.indexOf("/h/work") - 1, argv.indexOf("/h/work") + 2)).toEqual(["--bind", "/h/work", "/app"]);
    expect(argv.slice(argv.indexOf("/h/tests") - 1, argv.indexOf("/h/tests") + 2)).toEqual(["--ro-bind", "/h/tests", "/tests"]);
    expect(argv.slice(argv.indexOf("--chdir"), argv.indexOf("--chdir") + 2)).toEqual(["--chdir", "/app"]);
  });
});

describe("sandbox: without bubblewrap", () => {
  afterEach(() => {
    delete process.env.GYM_BWRAP;
    resetSandboxDetection();
  });

  test("refuses with the reason and the loudly named opt-out; the opt-out runs unsandboxed", async () => {
    process.env.GYM_BWRAP = "";
    resetSandboxDetection();
    const refused = await openSandbox("bwrap", "code_gen").catch((e) => e);
    expect(refused).toBeInstanceOf(GymError);
    expect([refused.code, refused.message]).toEqual(["E_SANDBOX", "code_gen runs model-written programs and needs a sandbox, but bubblewrap (bwrap) is not installed"]);
    expect(refused.hint).toContain("GYM_SANDBOX=unsafe_no_sandbox");
    const unsafe = await openSandbox("unsafe_no_sandbox", "test");
    const result = await unsafe.run({ argv: ["/bin/sh", "-c", "echo $((6 * 7))"] });
    expect([result.exitCode, result.stdout, result.limit]).toEqual([0, "42\n", null]);
  });

  test("a mode other than bwrap or unsafe_no_sandbox is a config error", () => {
    expect(() => sandboxMode("none")).toThrow("unknown sandbox mode");
    expect(sandboxMode(null)).toBe((process.env.GYM_SANDBOX as never) || "bwrap");
  });
});

describe("sandbox: limits", () => {
  sandboxed("a program runs as an unprivileged user in its own pid namespace, with no capabilities", async () => {
    const r = await runPy("import os\nstatus = open('/proc/self/status').read()\nprint(os.getuid() != 0, os.getpid() < 10, 'CapEff:\\t0000000000000000' in status, os.listdir('/proc').count('1') == 1)");
    expect([r.exitCode, r.stdout, r.limit]).toEqual([0, "True True True True\n", null]);
  });

  sandboxed("its /tmp is writable and private, the system read-only, the host /tmp invisible", async () => {
    const r = await runPy("import os\nopen('/tmp/x', 'w').write('1')\ntry:\n    open('/usr/x', 'w')\nexcept OSError as e:\n    print(e.errno)\nprint(os.listdir('/tmp'))");
    expect(r.stdout).toBe("30\n['x']\n");
  });

  sandboxed("CPU time, memory, output and wall limits each end the run with their name", async () => {
    const [cpu, memory, output, wall] = await Promise.all([
      runPy("while True: pass", { cpuSeconds: 1 }),
      runPy("a = []\nwhile True: a.append(bytearray(32 * 1024**2))", { memoryBytes: 128 * 1024 ** 2 }),
      runPy("import sys\nwhile True: sys.stdout.write('x' * 65536)", { outputBytes: 1024 ** 2 }),
      runPy("import time\ntime.sleep(60)", { wallSeconds: 1 }),
    ]);
    expect([cpu.limit, memory.limit, output.limit, wall.limit]).toEqual(["cpu", "memory", "output", "wall"]);
    expect(output.stdout.length).toBe(1024 ** 2);
    expect(wall.reason).toBe("killed: wall-clock limit of 1 s");
  }, 60_000);
});
