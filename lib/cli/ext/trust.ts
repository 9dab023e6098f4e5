// `zot ext trust NAME [--revoke]` and `zot ext trust --project [NAME] [--revoke]`: approve a global
// extension's manifest as it is now (or withdraw the grant), or trust this project's
// ./.zot/extensions (all of them, or one), pinned to their manifests as they are now, and (for the
// whole project) its ./.zot/agents type files, pinned to their text.
import { defineCommand } from "citty";
import { listInstalled, type InstalledExtension } from "../../extensions/install/installed.ts";
import { findInstalled } from "../../extensions/install/manage.ts";
import { approveExtension, revokeExtension, trustProject, untrustProject } from "../../extensions/catalog/trust/records.ts";
import { cwdArg, projectDir, rootsFor, UsageError } from "./args.ts";
import { confirm } from "./ask.ts";
import { describeRequest } from "./install.ts";
import { readConfig } from "../../config.ts";
import { passedEnv, userFailurePolicies } from "../../extensions/catalog/permissions/user-policy.ts";
import { printable } from "../../terminal-text.ts";
import { basename } from "node:path";
import type { Candidate } from "../../extensions/catalog/candidate.ts";
import { replacedGuards } from "../../extensions/catalog/permissions/absent-guards.ts";
import type { ZotPaths } from "../../paths.ts";
import { projectSkillFiles, type ProjectSkillFile } from "../../coding/skills.ts";
import { subagentTypeFileHash, subagentTypeFiles, parseSubagentType, projectAgentsDir } from "../../app/subagents/subagent-types.ts";

/** What each asks for, with the variables config.json passes that copy (read per call: it is small). */
async function describeAll(exts: InstalledExtension[], configPath: string, cwd: string): Promise<string> {
  const policies = userFailurePolicies(await readConfig(configPath));
  return exts.map((e) => describeRequest(e.manifest!, passedEnv(policies, { name: e.name, scope: e.scope }, cwd))).join("");
}

/** What a project's agent type files ask for: their tools and model, as the model would get them. */
function showAgents(files: Array<{ file: string; text: string }>): string {
  return files.map(({ file, text }) => {
    const parsed = parseSubagentType(file, text, "project");
    if (typeof parsed === "string") return `agent type ${basename(file)}: unusable (${parsed})\n`;
    return `agent type ${parsed.name} (${basename(file)}): tools ${parsed.tools?.join(", ") ?? "the parent's"}`
      + `${parsed.model ? `, model ${parsed.model}` : ""}\n  ${parsed.description}\n`;
  }).join("");
}

/** A warning for each project copy that would replace one of the user's fail-closed guards. */
async function showReplacedGuards(paths: ZotPaths, chosen: InstalledExtension[], installed: InstalledExtension[]): Promise<string> {
  const asCandidate = (e: InstalledExtension): Candidate => ({ dir: e.path, scope: e.scope, name: e.name, warnings: [],
    decision: e.enabled ? "spawn" : "disabled", ...(e.manifest && e.kind ? { loaded: { dir: e.path, manifest: e.manifest, kind: e.kind, enabled: e.enabled } } : {}) });
  const pending = chosen.map(asCandidate);
  const replaced = replacedGuards(pending, userFailurePolicies(await readConfig(paths.config)).byName, installed.map(asCandidate));
  return pending.flatMap((c) => replaced.has(c) ? [`warning: ${c.name}: ${replaced.get(c)}\n`] : []).join("");
}

/** What a project's skill files offer the model: each one's name and description line. */
function showSkills(files: ProjectSkillFile[]): string {
  return files.map((f) => `skill ${f.path}: ${f.description}\n`).join("");
}

/**
 * The user's yes: --yes, or an answer on the terminal after seeing `request` (on stderr). Without
 * a terminal and --yes nothing is trusted, as `zot ext install` refuses to install.
 */
async function approve(request: string, question: string, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) {
    throw new Error("zot asks before trusting an extension, and there is no terminal to ask on; pass --yes to trust what it requests");
  }
  process.stderr.write(request);
  if (await confirm(`${question} [y/N] `)) return true;
  process.stderr.write("Nothing trusted.\n");
  return false;
}

export const trustCommand = defineCommand({
  meta: {
    name: "trust",
    description: "Approve an extension's permissions (or --revoke them); with --project, trust this project's extensions",
  },
  args: {
    name: { type: "positional", required: false, description: "Extension name (with --project: only this one)" },
    project: { type: "boolean", description: "Trust the extensions in ./.zot/extensions of this project" },
    revoke: { type: "boolean", description: "Withdraw the grant (with --project: the project's trust)" },
    yes: { type: "boolean", alias: "y", description: "Trust without asking (needed without a terminal)" },
    ...cwdArg,
  },
  async run({ args }) {
    const roots = rootsFor(args.cwd);
    const installed = await listInstalled(roots);
    const name = typeof args.name === "string" && args.name !== "" ? args.name : undefined;
    if (args.project) {
      const cwd = projectDir(args.cwd);
      if (args.revoke) {
        if (name) throw new UsageError("--project --revoke withdraws the whole project's trust; leave out the name");
        const had = await untrustProject(roots.paths, cwd);
        process.stdout.write(printable(had ? `${cwd} is no longer trusted; its extensions do not start until you trust it again.\n`
          : `${cwd} was not trusted.\n`));
        return 0;
      }
      const chosen = name ? [findInstalled(installed, name, "project")] : installed.filter((e) => e.scope === "project" && e.manifest);
      // Trusting the whole project also pins its agent type and skill files, which it shows too.
      const agents = name ? [] : subagentTypeFiles(projectAgentsDir(cwd));
      const skills = name ? [] : projectSkillFiles(cwd);
      if (chosen.length === 0 && agents.length === 0 && skills.length === 0) throw new Error(`${roots.project} holds no extensions to trust`);
      const what = [...chosen.map((e) => e.name), ...agents.map((a) => `agent type ${basename(a.file)}`),
        ...skills.map((f) => `skill ${f.path}`)].join(", ");
      const shown = await describeAll(chosen, roots.paths.config, cwd) + await showReplacedGuards(roots.paths, chosen, installed)
        + showAgents(agents) + showSkills(skills);
      if (!(await approve(shown, `Trust ${what} in ${cwd}?`, args.yes === true))) return 1;
      await trustProject(roots.paths, cwd, chosen.map((e) => ({ manifest: e.manifest!, dir: e.path, source: e.source, pinnedDir: e.pinnedDir })), Boolean(name),
        name ? {} : { agents: Object.fromEntries(agents.map((a) => [basename(a.file), subagentTypeFileHash(a.text)])),
          skills: Object.fromEntries(skills.map((f) => [f.path, f.sha256])) });
      process.stdout.write(printable(`${shown}Trusted ${what} in ${cwd}; `
        + "they are used in this project until their files change.\n"));
      return 0;
    }
    if (!name) throw new UsageError("missing <name> (or pass --project to trust this project's extensions)");
    const ext = findInstalled(installed, name, "global");
    if (!ext.manifest) throw new Error(`${ext.path}: ${ext.error ?? "its manifest cannot be read"}`);
    if (args.revoke) {
      await revokeExtension(roots.paths, ext.manifest);
      process.stdout.write(printable(`Revoked the grant of ${ext.name}; it does not start until \`zot ext trust ${ext.name}\` approves it again.\n`));
      return 0;
    }
    const shown = await describeAll([ext], roots.paths.config, process.cwd());
    if (!(await approve(shown, `Approve ${ext.name} with these permissions?`, args.yes === true))) return 1;
    await approveExtension(roots.paths, ext.manifest);
    process.stdout.write(printable(`${shown}Approved ${ext.name}.\n`));
    return 0;
  },
});
