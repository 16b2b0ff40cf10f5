/**
 * The sandbox provider contract of the Harbor path (spec harbor-atif §2.4) and the name → provider lookup:
 * `create(spec)` returns once commands and file transfer work; `exec` never throws for what the command does (a
 * limit is return_code 125 with error_type "timeout" or "sandbox" and a one-line reason); `upload`/`download` move a
 * file or a whole folder; `close` is idempotent. One handle is one sandbox kept across exec calls (a trial).
 * Providers: `local` (plain Linux on bubblewrap), `podman`, `docker`, and `container` (podman if it runs, else docker).
 */
import { nemoGymOnly } from "../config/nemo-gym-shipped.ts";
import { GymError } from "../errors.ts";

export interface SandboxSpec {
  /** The task's working directory inside the sandbox (commands start there). */
  workdir: string;
  env?: Record<string, string>;
  memoryMib?: number;
  cpus?: number;
  /** Disk the sandbox may write (container providers; the local provider ignores it). */
  storageMib?: number;
  /** true when the task allows network access (`network_mode = "public"` / `allow_internet = true`). */
  network?: boolean;
  /** A prebuilt image (`[environment] docker_image`); container providers only, it wins over `environmentDir`. */
  image?: string;
  /** A folder with a Dockerfile (the task's `environment/`), built when there is no `image`. */
  environmentDir?: string;
  /** Seconds to allow an image build (`[environment] build_timeout_sec`, default 600). */
  buildTimeoutS?: number;
  /** Seconds after which the sandbox removes itself even if gym never closes it (a backstop). */
  ttlS?: number;
  /** A short name for logs and container names (the task id). */
  label?: string;
  /** Host files or folders shown read-only at a sandbox path in every command (an agent's CLI, a socket folder). */
  mounts?: { host: string; path: string }[];
}

export interface SandboxHandle {
  sandbox_id: string;
  provider_name: string;
  spec: SandboxSpec;
}

export interface ExecOptions {
  env?: Record<string, string>;
  timeoutS: number;
  /** Working directory inside the sandbox (default: the spec's workdir). */
  cwd?: string;
  /** User name or uid (container providers; the local provider runs every command as one user). */
  user?: string | number;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  return_code: number;
  error_type: "timeout" | "sandbox" | null;
  /** The limit's one-line reason when error_type is set. */
  reason: string | null;
}

export interface SandboxProvider {
  readonly name: string;
  /** What this provider does and does not isolate or cap, for `--help` and the run summary. */
  readonly limits: string;
  /** true when a process started by one exec (a server, a tmux session) is still there for the next one. */
  readonly keepsProcesses: boolean;
  create(spec: SandboxSpec): Promise<SandboxHandle>;
  exec(handle: SandboxHandle, command: string, options: ExecOptions): Promise<ExecResult>;
  /** Copies a host file or folder to `sandboxPath` (a folder replaces what was there). */
  upload(handle: SandboxHandle, hostPath: string, sandboxPath: string): Promise<void>;
  /** Copies a sandbox file or folder to `hostPath` (a folder replaces what was there); a missing one is an error. */
  download(handle: SandboxHandle, sandboxPath: string, hostPath: string): Promise<void>;
  close(handle: SandboxHandle): Promise<void>;
}

export const SANDBOX_PROVIDERS = ["local", "podman", "docker", "container"] as const;
export type SandboxProviderName = (typeof SANDBOX_PROVIDERS)[number];

/** Checks a `--sandbox` value up front (exit 2 with the choices). */
export function checkProviderName(name: string): SandboxProviderName {
  if ((SANDBOX_PROVIDERS as readonly string[]).includes(name)) return name as SandboxProviderName;
  const upstream = nemoGymOnly("sandbox", name);
  throw new GymError("E_BAD_FLAG_VALUE", upstream ? `--sandbox ${name}: ${upstream}` : `--sandbox ${name} is not a sandbox provider`, {
    hint: `use one of: ${SANDBOX_PROVIDERS.map((p) => `--sandbox ${p}`).join(", ")} (local: plain Linux on bubblewrap; container: podman if it runs here, else docker)`,
  });
}

/** The provider for a `--sandbox` name; `container` picks podman when it runs here, else docker. */
export async function sandboxProvider(name: string): Promise<SandboxProvider> {
  const checked = checkProviderName(name);
  if (checked === "local") return (await import("./local-provider.ts")).localProvider;
  const { containerProvider } = await import("./container/index.ts");
  return containerProvider(checked);
}

/** The handle's provider must be the one called (a handle from another provider is a programming error). */
export function expectProvider<H extends SandboxHandle>(handle: SandboxHandle, name: string): H {
  if (handle.provider_name !== name) throw new Error(`a ${handle.provider_name} sandbox handle was passed to the ${name} provider`);
  return handle as H;
}

/** The limits of each provider, as `--help` states them (the run summary prints the chosen provider's `limits`). */
export const SANDBOX_HELP: readonly string[] = [
  "--sandbox local (default): plain Linux on bubblewrap; the task's Dockerfile/docker_image is NOT built or pulled; commands run on this host's read-only",
  "  /usr, /etc, /bin, /lib in a private working dir, with no network, as nobody when gym is root; memory (task memory_mb), 256 processes, CPU and wall time",
  "  (solve: min(agent timeout_sec, 3600) s; tests: verifier timeout_sec) and output are capped; processes do not outlive one command.",
  "--sandbox podman | docker | container (podman if it runs, else docker): the task's docker_image (already on this machine; nothing is pulled) or its",
  "  environment/Dockerfile (built with --pull=never, network only during the build); one container per trial, kept across commands and removed at the end",
  "  (and within seconds of gym being killed); memory_mb (no swap), 256 processes, cpus, storage_mb written (checked each second) and the same wall times",
  "  capped; no network unless the task sets network_mode = \"public\" or allow_internet = true; no-new-privileges; a shared kernel, not a VM.",
];
