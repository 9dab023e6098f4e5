// How an extension is started inside its sandbox: the sandbox program (bwrap, sandbox-exec) with
// the extension's command as its argument. A sandbox that cannot be set up for an extension that
// declared permissions is an error that names the cause and the fix; such an extension never
// silently runs without it. A full-access extension runs in a PID namespace when this machine
// offers one (Linux with bubblewrap), and as it is otherwise.
import { existsSync, lstatSync, mkdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute } from "node:path";
import { isInside } from "../../../fs/inside.ts";
import { findOnPath } from "../exec-resolve.ts";
import type { PermissionGrant } from "../../catalog/permissions/manifest-permissions.ts";
import { bwrapArgs, bwrapProblem } from "./bwrap.ts";
import { programsToMount } from "./interpreter.ts";
import { LINUX_SYSTEM_PATHS, MACOS_SYSTEM_PATHS, planSandbox, type SandboxPlan } from "./plan.ts";
import type { RootOnlyEntries } from "./root-only.ts";
import { seatbeltProfile } from "./seatbelt.ts";

export interface SandboxOptions {
  /** The bubblewrap program (default: `bwrap` on PATH). */
  bwrap?: string;
  /** The sandbox-exec program (default /usr/bin/sandbox-exec). */
  sandboxExec?: string;
  platform?: NodeJS.Platform;
  /** PATH to look programs up on (default: the environment's). */
  path?: string;
}

export interface SandboxRequest {
  name: string;
  dir: string;
  /** The resolved command (resolveExec) and its arguments. */
  command: string;
  args: string[];
  grant: PermissionGrant;
  dataDir: string;
  project: string;
  home: string;
  /** zot's Python SDK folder and the bun binary zot carries, when there are. */
  sdkDirs: string[];
  bun?: string;
  /** Never mounted through a program's installation folder ($ZOT_HOME: credentials). */
  privateDirs?: string[];
  /** What only root may read under /etc (hidden when zot runs as root). */
  rootOnly?: RootOnlyEntries;
}

export interface SandboxedCommand {
  command: string;
  args: string[];
  plan: SandboxPlan;
  /** Which mechanism: for the log. */
  mechanism: "bubblewrap" | "sandbox-exec";
}

export class SandboxUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SandboxUnavailableError";
  }
}

const BWRAP_INSTALL = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; "
  + "Arch: pacman -S bubblewrap)";

/** `command` by absolute path: as given, or found on PATH (bare names), else unchanged. */
const locate = (command: string, pathVar: string | undefined) =>
  isAbsolute(command) ? command : (findOnPath(command, pathVar) ?? command);

/** The sandbox program this machine offers, or the message of why it offers none. */
export type SandboxProgram = { mechanism: SandboxedCommand["mechanism"]; path: string } | { unavailable: string };

/** The bubblewrap on this machine that can set up `use`, or why there is none. */
async function findBwrap(use: "confined" | "isolated", options: SandboxOptions): Promise<{ path: string } | { problem: string }> {
  const bwrap = options.bwrap ?? findOnPath("bwrap", options.path ?? process.env.PATH);
  if (!bwrap) return { problem: `bubblewrap (bwrap) is not installed: ${BWRAP_INSTALL}` };
  const problem = await bwrapProblem(bwrap, use);
  return problem ? { problem: `${problem}; ${BWRAP_INSTALL} with user namespaces enabled` } : { path: bwrap };
}

/**
 * Which sandbox program confines an extension that declared permissions here: bwrap (once it
 * has proved it can create the namespaces, a probe shared by every start of the process) or
 * sandbox-exec. When there is none the answer is the message its start fails with.
 */
export async function findSandboxProgram(options: SandboxOptions = {}): Promise<SandboxProgram> {
  const platform = options.platform ?? process.platform;
  const why = "its manifest declares permissions, so it runs in an OS sandbox";
  const noSandbox = "or start zot with --no-sandbox to run it unsandboxed";
  if (platform === "linux") {
    const found = await findBwrap("confined", options);
    return "path" in found ? { mechanism: "bubblewrap", path: found.path } : { unavailable: `${why}, and ${found.problem}, ${noSandbox}` };
  }
  if (platform === "darwin") {
    const sandboxExec = options.sandboxExec ?? "/usr/bin/sandbox-exec";
    if (!existsSync(sandboxExec)) return { unavailable: `${why}, and ${sandboxExec} does not exist; ${noSandbox}` };
    return { mechanism: "sandbox-exec", path: sandboxExec };
  }
  return { unavailable: `${why}, and zot has no OS sandbox for ${platform}; ${noSandbox}` };
}

/** The bubblewrap that gives a full-access extension its own PID namespace, or why there is none. */
export async function findIsolation(options: SandboxOptions = {}): Promise<{ bwrap: string } | { unavailable: string }> {
  const platform = options.platform ?? process.platform;
  if (platform !== "linux") return { unavailable: `zot has no PID namespaces on ${platform}` };
  const found = await findBwrap("isolated", options);
  return "path" in found ? { bwrap: found.path } : { unavailable: found.problem };
}

/**
 * The data folder, created if missing. It is refused when it is a symlink, or resolves outside
 * the folder that holds every extension's data: the sandbox would mount wherever it points.
 */
function prepareDataDir(dataDir: string): string {
  mkdirSync(dirname(dataDir), { recursive: true });
  let info;
  try {
    info = lstatSync(dataDir);
  } catch {
    mkdirSync(dataDir);
    info = lstatSync(dataDir);
  }
  if (!info.isDirectory()) {
    throw new SandboxUnavailableError(`its data folder ${dataDir} is ${info.isSymbolicLink() ? "a symlink" : "not a folder"}; `
      + "zot mounts only a real folder there: remove it and start again");
  }
  const real = realpathSync(dataDir);
  if (!isInside(realpathSync(dirname(dataDir)), real)) throw new SandboxUnavailableError(`its data folder ${dataDir} resolves to ${real}, outside ${dirname(dataDir)}`);
  return real;
}

/**
 * The command line that runs `request` inside `program`'s sandbox built from its grant. Throws
 * SandboxUnavailableError when this machine cannot sandbox it (findSandboxProgram said why), and
 * InterpreterError for a #! line that would widen the mounts.
 */
export function sandboxCommand(request: SandboxRequest, program: SandboxProgram, options: Pick<SandboxOptions, "path"> = {}): SandboxedCommand {
  if ("unavailable" in program) throw new SandboxUnavailableError(program.unavailable);
  const pathVar = options.path ?? process.env.PATH;
  const command = locate(request.command, pathVar);
  const context = {
    dir: request.dir, dataDir: prepareDataDir(request.dataDir), project: request.project, temp: tmpdir(), home: request.home,
    programs: programsToMount(command, pathVar), sdkDirs: request.sdkDirs,
    ...(request.bun ? { files: [request.bun] } : {}), ...(request.privateDirs ? { privateDirs: request.privateDirs } : {}),
    ...(request.rootOnly ? { rootOnly: request.rootOnly } : {}),
  };
  const tempGranted = [...(request.grant.fs?.read ?? []), ...(request.grant.fs?.write ?? [])].some((p) => p.startsWith("{temp}"));
  if (program.mechanism === "bubblewrap") {
    const plan = planSandbox(request.grant, context, LINUX_SYSTEM_PATHS);
    return { command: program.path, args: bwrapArgs(plan, command, request.args, { tempGranted, systemPaths: LINUX_SYSTEM_PATHS }),
      plan, mechanism: "bubblewrap" };
  }
  const plan = planSandbox(request.grant, context, MACOS_SYSTEM_PATHS);
  return { command: program.path, args: ["-p", seatbeltProfile(plan), command, ...request.args], plan, mechanism: "sandbox-exec" };
}
