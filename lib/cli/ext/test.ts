// `zot ext test <path> [--json] [--timeout-ms N]`: the conformance checker for extension authors.
// Starts the extension in <path> as zot does, acts as a host over its stdio and prints a
// checklist. Exit 0 when every check passed (warnings allowed), 1 when any failed, 2 on a usage
// error.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { defineCommand } from "citty";
import { savedModel } from "../../app/settings.ts";
import { readConfig } from "../../config.ts";
import { renderConformance } from "../../extensions/authoring/conformance/report.ts";
import { testExtension } from "../../extensions/authoring/conformance/run.ts";
import { DEFAULT_REPLY_TIMEOUT_MS } from "../../extensions/authoring/conformance/session.ts";
import { zotPaths } from "../../paths.ts";
import { parseTimeoutMs, UsageError } from "./args.ts";

export const testCommand = defineCommand({
  meta: { name: "test", description: "Check that an extension folder speaks the protocol correctly (conformance checklist)" },
  args: {
    path: { type: "positional", description: "The extension folder (holding extension.json)", required: true },
    json: { type: "boolean", description: "Print one JSON object {ok, extension, checks} instead of a checklist" },
    "timeout-ms": { type: "string", valueHint: "N",
      description: `Reply deadline for each command and tool call (default ${DEFAULT_REPLY_TIMEOUT_MS})` },
  },
  async run({ args }) {
    const reply = parseTimeoutMs(args["timeout-ms"], DEFAULT_REPLY_TIMEOUT_MS);
    const dir = resolve(String(args.path));
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`${args.path}: no such folder`);
    const paths = zotPaths();
    const config = await readConfig(paths.config);
    const result = await testExtension({
      dir, paths, cwd: process.cwd(),
      // As `zot ext doctor`: what a real run would announce in hello_ack.
      provider: process.env.ZOT_PROVIDER || config.provider || "anthropic",
      model: process.env.ZOT_MODEL || savedModel(config) || "",
      timeouts: { reply },
    });
    process.stdout.write(args.json ? `${JSON.stringify(result)}\n` : renderConformance(result));
    return result.ok ? 0 : 1;
  },
});
