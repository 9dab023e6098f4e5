// `zot mcp serve [options]`: parses the flags, then serves until the client closes stdin. The MCP
// SDK loads only here, so other commands never pay for it.
import { UsageError } from "../../errors.ts";
import { commandHelp } from "../usage.ts";
import { parseServeArgs, serveCommand, type ServeArgs } from "./serve-args.ts";

export async function runMcpServe(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  try {
    const args: ServeArgs = parseServeArgs(argv);
    if (args.help) {
      process.stdout.write(await commandHelp(serveCommand, "zot mcp", process.stdout, env));
      return 0;
    }
    const { serveMcp } = await import("../../modes/mcp-serve/serve.ts");
    return await serveMcp({ config: args.config, selection: args.selection, env });
  } catch (err) {
    // A bad flag, or a bad --cwd or --tools found once the runtime starts.
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`zot: ${err.message}\n`);
    return 2;
  }
}
