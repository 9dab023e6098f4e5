// The root command: parse flags, then hand over to the chosen mode.
import { versionText } from "./version-text.ts";
import { parseRootArgs, toRunConfig, UsageError, type RootOptions } from "./root-args.ts";
import { printable } from "../terminal-text.ts";
import { useDirectStdio, useStdStreams, writeStderr, writeStdout } from "../std-output.ts";

export async function runRoot(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  let options: RootOptions;
  try {
    options = parseRootArgs(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    writeStderr(`zot: ${printable(err.message)}\n`);
    return 2;
  }
  // What only prints, and the one-shot modes, write directly (std-output.ts).
  if (!options.help && (options.version || options.listModels || options.mode === "json" || options.mode === "print")) useDirectStdio();
  else useStdStreams();
  if (options.help) {
    // Help goes to stdout only when stdout is for people.
    const out = options.mode === "json" || options.mode === "rpc" || options.mode === "acp" ? process.stderr : process.stdout;
    // Loaded only for --help: a run never lays out help.
    const [{ rootHelpSpec }, { modeHelpSpec }, { helpFor }] = await Promise.all([import("./help/root-help.ts"), import("./help/mode-help.ts"), import("./usage.ts")]);
    const spec = options.mode === "rpc" || options.mode === "acp" ? await modeHelpSpec(options.mode) : rootHelpSpec();
    out.write(helpFor(spec, out, env));
    return 0;
  }
  if (options.version) {
    writeStdout(await versionText(options.verbose));
    return 0;
  }
  if (options.listModels) {
    try {
      writeStdout(await (await import("./list-models.ts")).listModelsText(options, env));
    } catch (err) {
      writeStderr(`zot: ${printable((err as Error).message)}\n`);
      return 1;
    }
    return 0;
  }
  const config = toRunConfig(options);
  // After `--` a prompt is text even when it starts with a slash: `//` marks it so for the modes.
  const prompt = options.prompt?.startsWith("/") && argv.includes("--") ? `/${options.prompt}` : options.prompt;
  try {
    switch (options.mode) {
      case "print":
        return await (await import("../modes/print.ts")).runPrint(config, prompt, env);
      case "json":
        return await (await import("../modes/json.ts")).runJson(config, prompt, env);
      case "rpc":
        return await (await import("../modes/rpc/rpc.ts")).runRpc(config, env, process.stdin, options.listen);
      case "acp":
        return await (await import("../modes/acp/acp.ts")).runAcp(config, env);
      case "interactive":
        return await (await import("../modes/interactive.ts")).runInteractive(config, prompt, env);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      writeStderr(`zot: ${printable(err.message)}\n`);
      return 2;
    }
    throw err;
  }
}
