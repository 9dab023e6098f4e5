// How a sandboxed extension is started: the sandbox program (bwrap, sandbox-exec) with the
// extension's command as its argument. A sandbox that cannot be set up is an error that names
// the cause and the fix; the extension never silently runs without it.
import { existsSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, isAbsolute } from "node:path";
import { findOnPath, shebang } from "../host/exec-resolve.ts";
import type { PermissionGrant } from "../permissions/manifest-permissions.ts";
import { bwrapArgs, bwrapProblem } from "./bwrap.ts";
import { LINUX_SYSTEM_PATHS, MACOS_SYSTEM_PATHS, planSandbox, type SandboxPlan } from "./plan.ts";
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
  /** Never mounted through a program's installation folder ($ZOT_HOME). */
  privateDirs?: string[];
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
const declares = (grant: PermissionGrant) =>
  [grant.fs ? "fs" : "", grant.network !== undefined ? "network" : ""].filter(Boolean).join(" and ");

/** `command` by absolute path: as given, or found on PATH (bare names), else unchanged. */
const locate = (command: string, pathVar: string | undefined) =>
  isAbsolute(command) ? command : (findOnPath(command, pathVar) ?? command);

/** Programs the extension runs by absolute path: its command and its #! interpreter. */
export function programsOf(command: string, pathVar: string | undefined): string[] {
  const programs: string[] = [];
  const located = locate(command, pathVar);
  if (isAbsolute(located)) programs.push(located);
  const line = located && existsSync(located) ? shebang(located) : undefined;
  if (line) {
    const [interpreter = "", ...rest] = line.trim().split(/\s+/);
    if (isAbsolute(interpreter)) programs.push(interpreter);
    const name = rest.find((a) => !a.startsWith("-"));
    if (basename(interpreter) === "env" && name) {
      const found = findOnPath(name, pathVar);
      if (found) programs.push(found);
    }
  }
  return programs;
}

/** The sandbox program this machine offers for a grant, or the message of why it offers none. */
export type SandboxProgram = { mechanism: SandboxedCommand["mechanism"]; path: string } | { unavailable: string };

/**
 * Which sandbox program runs an extension with `grant` here: bwrap (once it has proved it can
 * create the namespaces, a probe shared by every start of the process) or sandbox-exec. When
 * there is none the answer is the message its start fails with: the cause and the fix.
 */
export async function findSandboxProgram(grant: PermissionGrant, options: SandboxOptions = {}): Promise<SandboxProgram> {
  const platform = options.platform ?? process.platform;
  const why = `its manifest declares ${declares(grant)} permissions, so it runs in an OS sandbox`;
  const noSandbox = "or start zot with --no-sandbox to run it unsandboxed";
  if (platform === "linux") {
    const bwrap = options.bwrap ?? findOnPath("bwrap", options.path ?? process.env.PATH);
    if (!bwrap) return { unavailable: `${why}, and bubblewrap (bwrap) is not installed: ${BWRAP_INSTALL}, ${noSandbox}` };
    const problem = await bwrapProblem(bwrap);
    if (problem) return { unavailable: `${why}, and ${problem}; ${BWRAP_INSTALL} with user namespaces enabled, ${noSandbox}` };
    return { mechanism: "bubblewrap", path: bwrap };
  }
  if (platform === "darwin") {
    const sandboxExec = options.sandboxExec ?? "/usr/bin/sandbox-exec";
    if (!existsSync(sandboxExec)) return { unavailable: `${why}, and ${sandboxExec} does not exist; ${noSandbox}` };
    return { mechanism: "sandbox-exec", path: sandboxExec };
  }
  return { unavailable: `${why}, and zot has no OS sandbox for ${platform}; ${noSandbox}` };
}

/**
 * The command line that runs `request` inside `program`'s sandbox built from its grant. Throws
 * SandboxUnavailableError when this machine cannot sandbox it (findSandboxProgram said why).
 */
export function sandboxCommand(request: SandboxRequest, program: SandboxProgram, options: Pick<SandboxOptions, "path"> = {}): SandboxedCommand {
  if ("unavailable" in program) throw new SandboxUnavailableError(program.unavailable);
  const pathVar = options.path ?? process.env.PATH;
  const command = locate(request.command, pathVar);
  const context = {
    dir: request.dir, dataDir: request.dataDir, project: request.project, temp: tmpdir(), home: request.home,
    programs: programsOf(request.command, pathVar), sdkDirs: request.sdkDirs,
    ...(request.bun ? { files: [request.bun] } : {}), ...(request.privateDirs ? { privateDirs: request.privateDirs } : {}),
  };
  const tempGranted = [...(request.grant.fs?.read ?? []), ...(request.grant.fs?.write ?? [])].some((p) => p.startsWith("{temp}"));
  mkdirSync(request.dataDir, { recursive: true });
  if (program.mechanism === "bubblewrap") {
    const plan = planSandbox(request.grant, context, LINUX_SYSTEM_PATHS);
    return { command: program.path, args: bwrapArgs(plan, command, request.args, { tempGranted, systemPaths: LINUX_SYSTEM_PATHS }),
      plan, mechanism: "bubblewrap" };
  }
  const plan = planSandbox(request.grant, context, MACOS_SYSTEM_PATHS);
  return { command: program.path, args: ["-p", seatbeltProfile(plan), command, ...request.args], plan, mechanism: "sandbox-exec" };
}
