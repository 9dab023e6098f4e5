// Python extension on zot's Python SDK (zot_ext). zot puts its own sdk/python folder on
// PYTHONPATH for the extensions it starts, so the scaffold imports the SDK without a copy.
import { renderReadme, sdkProtocolSection } from "./readme.ts";
import type { ExtensionTemplate, TemplateContext } from "./types.ts";

function source({ name, command, tool }: TemplateContext): string {
  return `#!/usr/bin/env python3
"""${name}: a zot extension written with zot's Python SDK (zot_ext).

It registers the slash command /${command} and the tool ${tool}. Log with ext.log(...)
(stderr, appended to $ZOT_HOME/logs/ext-${name}.log): stdout carries protocol frames only.
"""
import sys

try:
    from zot_ext import Extension, display, error_result, text_result
except ImportError as err:
    sys.stderr.write(
        "${name}: cannot import zot_ext, zot's Python SDK (" + str(err) + ").\\n"
        "It ships with zot as sdk/python/zot_ext.py, and zot puts that folder on PYTHONPATH for the\\n"
        "extensions it starts. To run this script another way, copy zot_ext.py beside it or add\\n"
        "that folder to PYTHONPATH.\\n"
    )
    sys.exit(1)

ext = Extension(${JSON.stringify(name)}, "0.1.0")  # the name must match extension.json


@ext.command(${JSON.stringify(command)}, "say hello from ${name}")
def hello(args):
    """args: what the user typed after /${command}."""
    return display("Hello from ${name}!" + (" You said: " + args if args else ""))


@ext.tool(
    ${JSON.stringify(tool)},
    "Count the words, lines and characters of a text.",
    {"type": "object", "properties": {"text": {"type": "string", "description": "the text to count"}},
     "required": ["text"]},
)
def count(args, ctx):
    """args: the JSON object the model sent; check it, models make mistakes."""
    text = args.get("text")
    if not isinstance(text, str):
        return error_result("text must be a string")
    return text_result("%d words, %d lines, %d characters" % (len(text.split()), len(text.splitlines()), len(text)))


if __name__ == "__main__":
    ext.run()
`;
}

export const pythonTemplate: ExtensionTemplate = {
  language: "python",
  summary: "Python 3 on zot's Python SDK (zot_ext, which zot provides to the extensions it starts)",
  entry: "main.py",
  source,
  description: ({ command, tool }) => `says hello (/${command}) and counts words (${tool})`,
  readme: (ctx) => renderReadme(ctx, {
    intro: `A zot extension written in Python with zot's Python SDK, \`zot_ext\`. It registers the slash
command \`/${ctx.command}\`, which answers with a short note, and the tool \`${ctx.tool}\`, which the
model can call to count the words, lines and characters of a text.`,
    files: ["`main.py`: the program, run directly through its shebang (it needs `python3` on PATH)."],
    tryIt: ["# ask the model something that needs the tool", `zot -p "Use ${ctx.tool} to count the words in: to be or not to be"`],
    sections: [
      sdkProtocolSection("`zot_ext`", ctx),
      `## Where zot_ext comes from

\`zot_ext.py\` ships with zot (its \`sdk/python\` folder), and zot puts that folder on
\`PYTHONPATH\` for every extension it starts, so \`main.py\` imports it without a copy. Run
outside zot (or on a zot build without that folder), \`main.py\` stops with a message on stderr
and exit status 1; then copy \`zot_ext.py\` beside \`main.py\` (a copy there wins, which also pins
the SDK version you ship) or add its folder to \`PYTHONPATH\`.

The SDK's API is in zot's \`sdk/python/README.md\`: \`@ext.command\`, \`@ext.tool\`, \`@ext.on_event\`,
interceptors, panels, \`ext.call_tool\`, \`ext.notify\` and more.`,
    ],
  }),
};
