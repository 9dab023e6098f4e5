// Runs one slash command line in any mode: built-ins first, then extension commands. The result
// says what happened; each mode decides how to show it (stdout in print mode, events in json/rpc).
import type { ExtensionReport } from "../extensions/host/report.ts";
import { isProviderName, listModels, PROVIDER_NAMES } from "../providers/index.ts";
import { BUILTIN_COMMANDS } from "./builtin-commands.ts";
import { agentsCommand } from "./subagents/agents-command.ts";
import { checkModelChoice, type ModelChoice } from "./model-choice.ts";
import { commandModel } from "./command-model.ts";
import { initPrompt } from "./init-command.ts";
import type { Runtime } from "./runtime-surface.ts";
import type { SlashOptions, SlashOutcome, SlashResult } from "./slash-outcome.ts";

export type { SlashOptions, SlashOutcome, SlashResult } from "./slash-outcome.ts";

export function parseSlash(line: string): { name: string; args: string } | undefined {
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(line.trim());
  return match ? { name: match[1]!, args: match[2]!.trim() } : undefined;
}

/**
 * True when `line` runs a slash command: its first word is `/name` and `name` is a built-in or
 * a running extension's command. Any other line, `/bin/sh is missing` included, is a prompt.
 */
export function isCommandLine(rt: Pick<Runtime, "commands">, line: string): boolean {
  const parsed = parseSlash(line);
  if (!parsed) return false;
  const name = parsed.name.toLowerCase();
  return BUILTIN_COMMANDS.some((c) => c.name === name) || rt.commands().some((c) => c.name.toLowerCase() === name);
}

function helpText(rt: Runtime, interactive: boolean): string {
  const rows = (list: Array<{ name: string; description: string }>) =>
    list.map((c) => `  /${c.name.padEnd(14)} ${c.description}`).join("\n");
  const builtins = BUILTIN_COMMANDS.filter((c) => interactive || !c.interactiveOnly);
  const ext = rt.commands().map((c) => ({ name: c.name, description: `${c.description} [${c.extension}]` }));
  return `Commands:\n${rows(builtins)}${ext.length ? `\n\nExtension commands:\n${rows(ext)}` : ""}`;
}

/** `/tools`: a line per tool (cut to `columns` when known); `/tools NAME`: its description and schema. */
function toolsText(rt: Runtime, name: string, columns: number | undefined): SlashResult {
  const tools = [...rt.session.tools().values()];
  const fromOf = (t: (typeof tools)[number]) => (t.source.kind === "builtin" ? "built-in" : t.source.extension);
  if (name !== "") {
    const tool = tools.find((t) => t.name === name);
    if (!tool) return { kind: "failed", message: `no tool "${name}" (tools: ${tools.map((t) => t.name).join(", ") || "none"})` };
    return { kind: "output", text: `${tool.name} (${fromOf(tool)})\n\n${tool.description}\n\nArguments (JSON Schema):\n${JSON.stringify(tool.schema, null, 2)}` };
  }
  if (tools.length === 0) return { kind: "output", text: "No tools are active." };
  const nameWidth = Math.max(...tools.map((t) => t.name.length));
  const fromWidth = Math.max(...tools.map((t) => fromOf(t).length));
  const cut = (line: string) => (columns !== undefined && [...line].length > columns - 1 ? `${[...line].slice(0, columns - 2).join("")}…` : line);
  const lines = tools.map((t) => cut(`  ${t.name.padEnd(nameWidth)}  ${fromOf(t).padEnd(fromWidth)}  ${firstSentence(t.description)}`));
  return { kind: "output", text: `Tools (/tools NAME for one in full):\n${lines.join("\n")}` };
}

function firstSentence(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  const end = /[.!?](\s|$)/.exec(line);
  return end ? line.slice(0, end.index + 1) : line;
}

/** "full access" when the manifest declares no permissions (see `zot ext doctor` for the rest). */
function accessOf(report: ExtensionReport): string {
  if (!report.permissions) return "-";
  return report.permissions.full_access ? "full access" : "declared";
}

function extText(rt: Runtime): string {
  const reports = rt.extensionReports();
  if (reports.length === 0) return "No extensions loaded.";
  return reports
    .map((r) => `  ${r.name.padEnd(16)} ${r.status.padEnd(8)} ${r.scope.padEnd(8)} ${accessOf(r).padEnd(12)} ${r.path}${r.errors.length ? `\n    ${r.errors.join("\n    ")}` : ""}`)
    .join("\n");
}

async function runBuiltin(rt: Runtime, name: string, args: string, interactive: boolean, columns?: number): Promise<SlashResult | undefined> {
  const s = rt.session;
  switch (name) {
    case "help":
      return { kind: "output", text: helpText(rt, interactive) };
    case "model": {
      if (!args) {
        const known = listModels(s.state.provider).map((m) => `  ${m.id}${m.deprecated ? ` (deprecated, end of life ${m.deprecated})` : ""}`).join("\n");
        return { kind: "output", text: `Model: ${s.state.provider}/${s.state.model}${known ? `\nKnown models:\n${known}` : ""}` };
      }
      let choice: ModelChoice;
      try {
        choice = checkModelChoice(args, { provider: s.state.provider, baseUrl: rt.settings.baseUrl });
        // Kept for later runs only when chosen in the REPL from the provider's known models.
        await rt.setModel(args, { remember: interactive && !choice.warning });
      } catch (err) {
        return { kind: "failed", message: (err as Error).message };
      }
      const kept = !interactive ? "\n(for this run only: choose it in the REPL or with --model to keep it)"
        : choice.warning ? "\n(for this session only: not saved as your model, since the provider's list does not have it)" : "";
      return { kind: "output", text: `Model set to ${s.state.provider}/${s.state.model}${choice.warning ? `\nwarning: ${choice.warning}` : ""}${kept}` };
    }
    case "clear":
      await s.clear();
      return { kind: "output", text: "Conversation cleared." };
    case "new":
      return { kind: "output", text: `New conversation ${await rt.switchSession()}.` };
    case "resume": {
      if (args) return { kind: "output", text: `Resumed conversation ${await rt.switchSession({ id: args })}.` };
      const recent = rt.recentSessions().slice(0, 10);
      if (recent.length === 0) return { kind: "output", text: "No saved conversations in this directory." };
      return { kind: "output", text: `Recent conversations (resume one with /resume ID):\n${recent
        .map((r) => `  ${r.id}  ${r.modified.toISOString().replace("T", " ").slice(0, 16)}`).join("\n")}` };
    }
    case "cd": {
      if (!args) return { kind: "output", text: `Working directory ${rt.cwd} (change it with /cd PATH).` };
      let moved: { cwd: string; sessionId: string };
      try {
        moved = await rt.changeCwd(args);
      } catch (err) {
        return { kind: "failed", message: (err as Error).message };
      }
      return { kind: "output", text: `Working directory ${moved.cwd}: new conversation ${moved.sessionId}.` };
    }
    case "fork":
    case "tree":
    case "export":
    case "import":
      // Loaded when used: a one-shot run never forks or exports.
      return (await import("./slash-branches.ts")).runBranching(rt, name, args, interactive);
    case "btw": {
      if (!args) return { kind: "failed", message: "usage: /btw QUESTION" };
      const answer = await s.btw(args);
      return answer.ok ? { kind: "output", text: answer.text } : { kind: "failed", message: `/btw: ${answer.error}` };
    }
    case "compact": {
      const r = await s.compact();
      return r.status === "completed"
        ? { kind: "output", text: `Compacted: ${r.message_count} messages, ~${r.token_estimate} tokens.` }
        : { kind: "failed", message: `compaction ${r.status}${r.error ? `: ${r.error}` : ""}` };
    }
    case "reload-ext":
      await rt.reloadExtensions();
      return { kind: "output", text: `Extensions reloaded.\n${extText(rt)}`, reload: { failures: rt.extensionReports()
        .filter((r) => r.status === "error").map((r) => ({ extension: r.name, message: r.errors.at(-1) ?? "failed to load" })) } };
    case "ext":
      return { kind: "output", text: extText(rt) };
    case "tools":
      return toolsText(rt, args, columns);
    case "agents": {
      const outcome = await agentsCommand(rt.agents, args);
      return outcome.ok ? { kind: "output", text: outcome.text } : { kind: "failed", message: outcome.message };
    }
    case "yolo": {
      const on = args === "" ? !s.yolo : args === "on";
      s.setYolo(on);
      return { kind: "output", text: `yolo ${on ? "on: tool calls run without confirmation" : "off: each tool call is confirmed"}` };
    }
    case "jail":
    case "unjail":
      s.setJail(name === "jail");
      return { kind: "output", text: name === "jail" ? `Tools are confined to ${rt.cwd}.` : "Tools are no longer confined." };
    case "login":
      // The REPL asks for the key itself; no other mode has a terminal to type it in.
      return { kind: "failed", message: "/login works only in interactive mode; pipe the key to `zot login --provider NAME --with-api-key`" };
    case "logout": {
      const provider = args.toLowerCase() || s.state.provider;
      if (!isProviderName(provider)) return { kind: "failed", message: `unknown provider "${args}" (${PROVIDER_NAMES.join(" or ")})` };
      const outcome = await (await import("./login.ts")).logOut([provider], rt.paths.auth, rt.env);
      return outcome.ok ? { kind: "output", text: outcome.message } : { kind: "failed", message: outcome.message };
    }
    case "exit":
      return interactive ? { kind: "exit" } : { kind: "failed", message: "/exit works only in interactive mode" };
    case "rewind":
      return (await import("./slash-rewind.ts")).runRewind(rt, args, interactive);
    case "init":
      return { kind: "run", run: rt.prompt(initPrompt(rt.cwd, args)) };
    case "output-style":
      return rt.outputStyle.command(args, interactive);
    case "theme":
      // The REPL handles it (it owns the colours); elsewhere there is nothing to colour.
      return { kind: "failed", message: "/theme works only in interactive mode" };
    default:
      return undefined;
  }
}

/** Runs `/name args`. Prompt actions start a run and return its promise without awaiting it. */
export async function runSlash(rt: Runtime, line: string, options: SlashOptions): Promise<SlashOutcome> {
  const parsed = parseSlash(line);
  if (!parsed) return { result: { kind: "failed", message: `not a command: ${line}` } };
  const builtin = await runBuiltin(rt, parsed.name.toLowerCase(), parsed.args, options.interactive, options.columns);
  if (builtin) return { result: builtin };

  const response = await rt.runExtensionCommand(parsed.name, parsed.args);
  if (response === undefined) {
    return { result: { kind: "failed", message: `unknown command /${parsed.name} (try /help)` } };
  }
  if ("error" in response && !("action" in response)) return { result: { kind: "failed", message: response.error } };
  const command = rt.commands().find((c) => c.name.toLowerCase() === parsed.name.toLowerCase());
  const extension = command?.extension ?? "extension";
  const unknownModel = response.action === "prompt" && response.model ? commandModel(response.model, rt.session.state.provider).warning : undefined;
  const problem = response.error ?? unknownModel;
  const error = problem ? { extension, message: problem } : undefined;
  // host.md: the action still runs when its payload is present, and does nothing when missing.
  const result = ((): SlashResult => {
    switch (response.action) {
      case "prompt": {
        if (!response.prompt?.trim()) return { kind: "noop" };
        const { model } = response.model ? commandModel(response.model, rt.session.state.provider) : {};
        return { kind: "run", run: rt.prompt(response.prompt, model ? { model } : {}) };
      }
      case "tool_prompt":
        return response.tool_name
          ? { kind: "run", run: rt.session.runToolPrompt(response.prompt ?? "", response.tool_name, response.tool_args ?? {}, { originExtension: extension }) }
          : { kind: "noop" };
      case "display":
        return response.display !== undefined ? { kind: "display", extension, text: response.display } : { kind: "noop" };
      case "insert":
        return response.insert !== undefined ? { kind: "insert", extension, text: response.insert } : { kind: "noop" };
      case "open_panel":
        return response.open_panel ? { kind: "panel", extension, panel: response.open_panel } : { kind: "noop" };
      default:
        return { kind: "noop" };
    }
  })();
  return { result, ...(error ? { error } : {}) };
}
