// What starting one extension runs: its own command, or bubblewrap (or sandbox-exec) around it,
// with the environment and data folder its isolation gives it, and what the log says about that.
import { mkdirSync } from "node:fs";
import { confinedEnv, withoutCredentials } from "../catalog/permissions/extension-env.ts";
import { isolatedArgs } from "./sandbox/bwrap.ts";
import type { Isolation } from "./sandbox/for-candidate.ts";
import { sandboxCommand } from "./sandbox/launch.ts";
import { existing } from "./sandbox/plan.ts";
import { bundledBun, extensionEnv, pythonSdkDir } from "./sdk-env.ts";

/** How an extension process was isolated, as `zot ext doctor` reports it (snake_case: written out as is). */
export interface IsolationReport {
  /** The OS sandbox confining it to its permissions, or null (full access, or --no-sandbox). */
  sandbox: "bubblewrap" | "sandbox-exec" | null;
  /** Whether it runs in a PID namespace of its own (everything it starts dies with it). */
  pid_namespace: boolean;
  /** Host paths mounted read-only and read-write (real paths), for a sandbox; null otherwise. */
  read_only: string[] | null;
  read_write: string[] | null;
  network: boolean | null;
  /** Host paths covered inside (what only root may read), for a sandbox as root. */
  hidden: string[];
  /** Why it is not isolated further, when it could be. */
  note?: string;
}

export interface LaunchLine {
  program: string;
  args: string[];
  dataDir: string;
  env: NodeJS.ProcessEnv;
  isolation: IsolationReport;
  notes: string[];
}

const unconfined = (pidNamespace: boolean, note?: string): IsolationReport =>
  ({ sandbox: null, pid_namespace: pidNamespace, read_only: null, read_write: null, network: null, hidden: [], ...(note ? { note } : {}) });

/** What launchLine needs of a spawn request. */
export interface LaunchRequest {
  name: string;
  dir: string;
  args: string[];
  cwd?: string;
  isolation?: Isolation;
  allowEnv?: string[];
}

/** The program, arguments and environment to spawn: the extension's own, or the sandbox wrapping them. */
export function launchLine(request: LaunchRequest, command: string): LaunchLine {
  const isolation = request.isolation;
  const cwd = request.cwd ?? request.dir;
  const fullEnv = (declared: string[] = []) => withoutCredentials(extensionEnv(), [...declared, ...(request.allowEnv ?? [])]);
  if (!isolation) return { program: command, args: request.args, dataDir: request.dir, env: extensionEnv(), isolation: unconfined(false), notes: [] };
  if (isolation.kind !== "confined") mkdirSync(isolation.dataDir, { recursive: true });
  if (isolation.kind === "none") {
    return { program: command, args: request.args, dataDir: isolation.dataDir, env: fullEnv(), isolation: unconfined(false, `no PID namespace: ${isolation.why}`),
      notes: [`full access, without a PID namespace (${isolation.why}): a process it starts that leaves its process group can outlive it`] };
  }
  if (isolation.kind === "isolated") {
    return { program: isolation.bwrap, args: isolatedArgs(cwd, command, request.args), dataDir: isolation.dataDir, env: fullEnv(),
      isolation: unconfined(true), notes: ["full access, in a PID namespace of its own (bubblewrap)"] };
  }
  if (isolation.kind === "disabled") {
    return { program: command, args: request.args, dataDir: isolation.dataDir, env: fullEnv(isolation.env), isolation: unconfined(false, "--no-sandbox"),
      notes: ["warning: its manifest declares permissions, but --no-sandbox runs it unsandboxed, with full access to files and network"] };
  }
  const sdk = pythonSdkDir();
  const bun = bundledBun();
  // Throws SandboxUnavailableError or InterpreterError, which the caller reports as "cannot start".
  const wrapped = sandboxCommand({ name: request.name, dir: request.dir, command, args: request.args, grant: isolation.grant,
    dataDir: isolation.dataDir, project: isolation.project, home: isolation.home, privateDirs: isolation.privateDirs, rootOnly: isolation.rootOnly,
    sdkDirs: sdk ? [sdk] : [], ...(bun ? { bun } : {}) }, isolation.program, isolation.options);
  const { plan } = wrapped;
  const hidden = [...plan.hidden.files, ...plan.hidden.dirs, ...plan.masked];
  return { program: wrapped.command, args: wrapped.args, dataDir: plan.readWrite[0] ?? isolation.dataDir,
    env: confinedEnv(extensionEnv(), [...(isolation.grant.env ?? []), ...(request.allowEnv ?? [])], plan.network),
    isolation: { sandbox: wrapped.mechanism, pid_namespace: wrapped.mechanism === "bubblewrap", read_only: existing(plan.readOnly),
      read_write: existing(plan.readWrite), network: plan.network, hidden },
    notes: [`sandboxed with ${wrapped.mechanism}: read-only ${existing(plan.readOnly).join(", ")}; read-write ${existing(plan.readWrite).join(", ")}; `
      + `network ${plan.network ? "allowed" : "none"}${hidden.length ? `; hidden (only root may read them, or zot's own): ${hidden.join(", ")}` : ""}`,
    ...plan.warnings.map((w) => `warning: ${w}`)] };
}
