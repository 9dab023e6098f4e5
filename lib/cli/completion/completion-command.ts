// `zot completion bash|zsh|fish`: prints a completion script for the shell. The hidden
// `zot completion --list-extensions` prints the installed extensions' names, one a line: the
// scripts call it when completing `zot ext remove|enable|disable|trust|logs|update`.
import { SHELLS } from "./spec.ts";

const USAGE = "Usage: zot completion bash|zsh|fish (see zot completion --help)";

async function extensionNames(): Promise<string[]> {
  const { listInstalled } = await import("../../extensions/install/installed.ts");
  const { rootsFor } = await import("../ext/args.ts");
  try {
    const installed = await listInstalled(rootsFor(undefined));
    return [...new Set(installed.filter((e) => !e.error).map((e) => e.name))];
  } catch {
    return []; // completion must never print an error into the user's command line
  }
}

export async function runCompletion(argv: string[]): Promise<number> {
  const [shell, ...rest] = argv;
  if (shell === "--help" || shell === "-h") {
    const { helpFor } = await import("../usage.ts");
    process.stdout.write(helpFor({
      name: "zot completion", description: "Print a shell completion script: subcommands, flags, flag values and installed extensions.",
      usage: ["zot completion bash|zsh|fish"],
      sections: [{ title: "LOADING IT", rows: [
        ["bash", "in ~/.bashrc: source <(zot completion bash)"],
        ["zsh", "in ~/.zshrc, after compinit: source <(zot completion zsh)"],
        ["fish", "once: zot completion fish > ~/.config/fish/completions/zot.fish"],
      ] }],
    }, process.stdout, process.env));
    return 0;
  }
  if (shell === "--list-extensions" && rest.length === 0) {
    const names = await extensionNames();
    process.stdout.write(names.map((n) => `${n}\n`).join(""));
    return 0;
  }
  if (shell === undefined || rest.length > 0 || !(SHELLS as readonly string[]).includes(shell)) {
    const why = shell === undefined ? "missing the shell" : rest.length > 0 ? `unexpected argument "${rest[0]}"` : `unknown shell "${shell}"`;
    process.stderr.write(`zot: ${why} (bash, zsh or fish)\n${USAGE}\n`);
    return 2;
  }
  const { completionSpec } = await import("./spec.ts");
  const spec = completionSpec();
  const render = shell === "bash" ? (await import("./bash.ts")).bashScript
    : shell === "zsh" ? (await import("./zsh.ts")).zshScript : (await import("./fish.ts")).fishScript;
  process.stdout.write(render(spec));
  return 0;
}
