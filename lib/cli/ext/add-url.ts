// `zot ext add-url NAME URL [--header K=V]… [--insecure] [--ca FILE] [--project]`: writes a
// WebSocket extension's folder (only its extension.json) and records the approval, as install
// does. Headers may hold `${VAR}`, expanded from zot's environment each time it connects.
import { defineCommand } from "citty";
import { resolve } from "node:path";
import { writeManifestFolder } from "../../extensions/install/mcp-add.ts";
import { approveExtension, trustProject } from "../../extensions/catalog/trust/records.ts";
import type { Manifest } from "../../extensions/catalog/manifest.ts";
import { headerProblem } from "../../extensions/catalog/manifest-url.ts";
import { takeRepeated, UsageError } from "../args.ts";
import { printable } from "../../terminal-text.ts";
import { cwdArg, projectDir, rootsFor } from "./args.ts";

const ADD_URL_ARGS = {
  name: { type: "positional", required: true, description: "Extension name (must match the name its server says in hello)" },
  url: { type: "positional", required: true, description: "ws://… (this machine only, unless --insecure) or wss://…" },
  header: { type: "string", alias: "H", valueHint: "KEY=VALUE",
    description: "A header of the connect request, e.g. 'Authorization=Bearer ${TEAM_TOKEN}' (repeatable; `Name: value` also works)" },
  insecure: { type: "boolean", description: "Allow plain ws:// to another machine (frames travel unencrypted)" },
  ca: { type: "string", valueHint: "FILE", description: "PEM file of the CA that signs the wss:// server's certificate" },
  project: { type: "boolean", description: "Add to ./.zot/extensions instead of $ZOT_HOME/extensions" },
  ...cwdArg,
} as const;

function headerPairs(values: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const at = value.includes("=") ? value.indexOf("=") : value.indexOf(":");
    if (at <= 0) throw new UsageError(`--header expects KEY=VALUE, got "${printable(value)}"`);
    const [name, headerValue] = [value.slice(0, at).trim(), value.slice(at + 1).trim()];
    // Checked here, before anything is written: the connect request could not carry it.
    const problem = headerProblem(name, headerValue);
    if (problem) throw new UsageError(`--header: ${problem}`);
    headers[name] = headerValue;
  }
  return headers;
}

export const addUrlCommand = defineCommand({
  meta: { name: "add-url", description: "Add an extension that runs at a WebSocket URL (zot connects to it instead of starting a process)" },
  args: ADD_URL_ARGS,
  async run({ args, rawArgs }) {
    const headers = headerPairs(takeRepeated(rawArgs, ADD_URL_ARGS, ["header"]).values.header!);
    const roots = rootsFor(args.cwd);
    const manifest = {
      name: args.name, description: `WebSocket extension at ${args.url}`, url: args.url,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(args.insecure ? { insecure: true } : {}),
      // Relative to the folder it lands in; the user typed it relative to their shell.
      ...(typeof args.ca === "string" ? { ca: resolve(process.cwd(), args.ca) } : {}),
    };
    const dir = await writeManifestFolder(args.project ? roots.project : roots.global, manifest, `zot ext remove ${args.name}`);
    const written = { ...manifest } as Manifest;
    if (args.project) await trustProject(roots.paths, projectDir(args.cwd), [{ manifest: written, dir }], true);
    else await approveExtension(roots.paths, written);
    process.stdout.write(printable(`Added ${args.name} (${args.project ? "project" : "global"}, ${dir}): zot connects to ${args.url} when it starts.\n`
      + "Check the connection with `zot ext doctor`.\n"));
    return 0;
  },
});
