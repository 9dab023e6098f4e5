// The program both SDK templates write (js and ts): one command and one tool on zot's TypeScript
// SDK. The TypeScript version differs only by its type annotations.
import { TS_SDK_FILE } from "./vendored-sdk.ts";
import type { TemplateContext } from "./types.ts";

export function sdkProgram({ name, command, tool }: TemplateContext, typed: boolean): string {
  const t = (annotation: string) => (typed ? annotation : "");
  return `import { createExtension, display, errorResult, textResult } from "./${TS_SDK_FILE}";

const ext = createExtension({ name: ${JSON.stringify(name)}, version: "0.1.0" }); // name as in extension.json

// args: what the user typed after /${command}.
ext.command(${JSON.stringify(command)}, "say hello from ${name}", (args${t(": string")}) =>
  display(\`Hello from ${name}!\${args ? \` You said: \${args}\` : ""}\`));

ext.tool(
  ${JSON.stringify(tool)},
  {
    description: "Count the words, lines and characters of a text.",
    schema: {
      type: "object",
      properties: { text: { type: "string", description: "the text to count" } },
      required: ["text"],
    },
  },
  // args: the JSON object the model sent; check it, models make mistakes.
  (args${t(": Record<string, unknown>")}) => {
    const text = args.text;
    if (typeof text !== "string") return errorResult("text must be a string");
    const words = text.split(/\\s+/).filter(Boolean).length;
    const lines = text === "" ? 0 : text.replace(/\\n$/, "").split("\\n").length;
    return textResult(\`\${words} words, \${lines} lines, \${[...text].length} characters\`);
  },
);

await ext.run();
`;
}
