/**
 * The container providers `podman` and `docker` (spec harbor-atif §2.4; NeMo Gym's Docker provider shells out to
 * the CLI the same way): one container per trial from the task's image, kept across exec calls (pid 1 is `sleep
 * <ttl>`), with memory (no swap), process, CPU and per-file size limits, no network unless the task allows it and
 * no-new-privileges; files move with `<engine> cp`; close removes it, and so does the watchdog when gym dies.
 * `container` picks podman when it runs here, else docker.
 */
import { availableParallelism } from "node:os";
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, posix } from "node:path";
import { GymError } from "../../errors.ts";
import { expectProvider, type SandboxProvider, type SandboxSpec } from "../provider.ts";
import { containerCgroup } from "./cgroup.ts";
import { engineCall, engineOf, engineProblem, firstError, type Engine, type EngineName } from "./engine.ts";
import { containerExec, PROCESS_LIMIT, type ContainerHandle } from "./exec.ts";
import { resolveImage } from "./image.ts";
import { guardContainers, HARBOR_LABEL, OWNER_LABEL, ownerId } from "./reaper.ts";

export const containerLimits = (name: EngineName) =>
  `--sandbox ${name} (containers): the task's docker_image (already on this machine; nothing is pulled) or its environment/Dockerfile (built with ` +
  `--pull=never, network only for the build); one container per trial, kept across commands, removed at the end and within seconds of gym being killed; ` +
  `memory_mb (no swap), ${PROCESS_LIMIT} processes, cpus, storage_mb written (checked each second, and per file) and wall time capped; no network unless ` +
  `the task sets network_mode = "public" or allow_internet = true; no-new-privileges; a shared kernel, not a VM.`;

let counter = 0;

/** This process's hard limit for a /proc/self/limits row: a container's ulimit may not exceed it (runc refuses). */
function hardLimit(row: string, fallback: number): number {
  try {
    const line = readFileSync("/proc/self/limits", "utf8").split("\n").find((l) => l.startsWith(row));
    const hard = line?.slice(26).trim().split(/\s+/)[1];
    return hard === "unlimited" ? fallback : Math.min(fallback, Number(hard) || fallback);
  } catch {
    return 1024;
  }
}

const ROOT_SETUP = (workdir: string) =>
  `mkdir -p '${workdir}' /logs/agent /logs/verifier /logs/artifacts && chmod 777 /logs/agent /logs/verifier /logs/artifacts && ` +
  `if command -v bash >/dev/null 2>&1; then printf 'ready bash'; else printf 'ready sh'; fi`;

function quoteCheck(path: string, what: string): string {
  if (!path.startsWith("/") || /['\0\n]/.test(path)) throw new GymError("E_SANDBOX", `${what} ${JSON.stringify(path)} must be an absolute path without quotes or newlines`, { hint: "fix the path" });
  return posix.normalize(path);
}

async function create(engine: Engine, spec: SandboxSpec, log: (line: string) => void): Promise<ContainerHandle> {
  const workdir = quoteCheck(spec.workdir, "workdir");
  await guardContainers(engine);
  const image = await resolveImage(engine, spec, log);
  const label = (spec.label ?? "task").toLowerCase().replace(/[^a-z0-9_.-]+/g, "-").slice(0, 40);
  const name = `gym-${label}-${process.pid}-${++counter}`;
  const memory = spec.memoryMib ?? 2048;
  const cpus = Math.min(spec.cpus ?? 1, availableParallelism());
  const env = Object.entries(spec.env ?? {}).flatMap(([k, v]) => ["--env", `${k}=${v}`]);
  const args = ["run", "-d", "--rm", "--name", name, "--label", `${HARBOR_LABEL}=1`, "--label", `${OWNER_LABEL}=${ownerId}`, "--stop-timeout", "0"];
  args.push(`--memory=${memory}m`, `--memory-swap=${memory}m`, `--pids-limit=${PROCESS_LIMIT}`, `--cpus=${cpus}`, "--security-opt", "no-new-privileges");
  // Any --ulimit replaces containers.conf's default_ulimits, so nofile and nproc are set too, within our hard limits.
  const nofile = hardLimit("Max open files", 20000);
  const nproc = hardLimit("Max processes", 32768); // per host uid (root here), not per container: the pids limit is the real cap
  args.push("--ulimit", `nofile=${nofile}:${nofile}`, "--ulimit", `nproc=${nproc}:${nproc}`);
  if (spec.storageMib) args.push("--ulimit", `fsize=${spec.storageMib * 1024 ** 2}`);
  if (!spec.network) args.push("--network=none");
  for (const mount of spec.mounts ?? []) args.push("--volume", `${mount.host}:${quoteCheck(mount.path, "mount path")}:ro`);
  args.push("--workdir", "/", ...env, "--entrypoint", "/bin/sh", image, "-c", `exec sleep ${Math.ceil(spec.ttlS ?? 86400)}`);
  const run = await engineCall(engine, args, 120);
  if (run.code !== 0) throw new GymError("E_SANDBOX", `${engine.name} run ${image} failed: ${firstError(run)}`, { hint: `check that ${engine.name} runs containers here (${engine.name} run --rm ${image} true)` });
  const inspect = await engineCall(engine, ["inspect", "--format", "{{.State.Pid}} {{.GraphDriver.Data.UpperDir}}", name], 60);
  const [pid, upper] = inspect.stdout.trim().split(/\s+/);
  const handle: ContainerHandle = {
    sandbox_id: name,
    provider_name: engine.name,
    spec: { ...spec, workdir },
    engine,
    container: name,
    shell: "/bin/sh",
    cgroup: Number(pid) > 0 ? containerCgroup(Number(pid)) : null,
    upperDir: upper && upper.startsWith("/") ? upper : null,
    execs: 0,
    closed: false,
  };
  const probe = await containerExec(handle, ROOT_SETUP(workdir), { timeoutS: 60, user: 0, cwd: "/" });
  if (!probe.stdout.startsWith("ready ")) {
    await close(handle);
    throw new GymError("E_SANDBOX", `the ${engine.name} sandbox from ${image} did not become ready: ${probe.reason ?? (probe.stderr.trim() || probe.stdout.trim() || `exit ${probe.return_code}`)}`, {
      hint: "the image needs /bin/sh, sleep, mkdir and chmod (Harbor tasks also need bash, tar, gzip, find)",
    });
  }
  handle.shell = probe.stdout === "ready bash" ? "bash" : "/bin/sh";
  return handle;
}

async function close(handle: ContainerHandle): Promise<void> {
  if (handle.closed) return;
  handle.closed = true;
  await engineCall(handle.engine, handle.engine.name === "podman" ? ["rm", "-f", "-t", "0", handle.container] : ["rm", "-f", handle.container], 120);
}

async function rootExec(handle: ContainerHandle, script: string, what: string): Promise<void> {
  const r = await containerExec(handle, script, { timeoutS: 60, user: 0, cwd: "/" });
  if (r.return_code !== 0) throw new GymError("E_SANDBOX", `${what}: ${r.reason ?? (r.stderr.trim() || `exit ${r.return_code}`)}`, { hint: "the sandbox may have been stopped at a limit" });
}

async function upload(handle: ContainerHandle, hostPath: string, sandboxPath: string): Promise<void> {
  const target = quoteCheck(sandboxPath, "upload target");
  const folder = statSync(hostPath).isDirectory();
  await rootExec(handle, folder ? `rm -rf '${target}' && mkdir -p '${target}'` : `mkdir -p '${posix.dirname(target)}'`, `preparing ${target}`);
  const cp = await engineCall(handle.engine, ["cp", folder ? `${hostPath}/.` : hostPath, `${handle.container}:${target}`], 300);
  if (cp.code !== 0) throw new GymError("E_SANDBOX", `${handle.engine.name} cp ${hostPath} → ${target} failed: ${firstError(cp)}`, { hint: "check the host path" });
}

async function download(handle: ContainerHandle, sandboxPath: string, hostPath: string): Promise<void> {
  const source = quoteCheck(sandboxPath, "download source");
  mkdirSync(dirname(hostPath), { recursive: true });
  const staging = mkdtempSync(join(dirname(hostPath), ".gym-download-"));
  try {
    const cp = await engineCall(handle.engine, ["cp", `${handle.container}:${source}`, join(staging, "x")], 300);
    if (cp.code !== 0) throw new GymError("E_SANDBOX", `${handle.engine.name} cp ${source} from the sandbox failed: ${firstError(cp)}`, { hint: "check that the path exists in the sandbox" });
    rmSync(hostPath, { recursive: true, force: true });
    renameSync(join(staging, "x"), hostPath);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** A container provider; `container` is podman when it runs here, else docker; a GymError says why neither does. */
export async function containerProvider(name: EngineName | "container", log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<SandboxProvider> {
  const candidates: EngineName[] = name === "container" ? ["podman", "docker"] : [name];
  const problems: string[] = [];
  for (const candidate of candidates) {
    const problem = await engineProblem(candidate);
    if (problem) {
      problems.push(problem);
      continue;
    }
    const engine = engineOf(candidate);
    const own = (h: Parameters<SandboxProvider["exec"]>[0]) => expectProvider<ContainerHandle>(h, candidate);
    return {
      name: candidate,
      limits: containerLimits(candidate),
      keepsProcesses: true,
      create: (spec) => create(engine, spec, log),
      exec: (h, command, options) => containerExec(own(h), command, options),
      upload: (h, from, to) => upload(own(h), from, to),
      download: (h, from, to) => download(own(h), from, to),
      close: (h) => close(own(h)),
    };
  }
  throw new GymError("E_SANDBOX", `--sandbox ${name} cannot run containers here: ${problems.join("; ")}`, {
    hint: "install podman (scripts/ci/up-podman.sh) or start dockerd, or use --sandbox local (plain Linux on bubblewrap)",
  });
}
