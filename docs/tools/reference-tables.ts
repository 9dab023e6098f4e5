// The parts of the reference that the code defines, written from it: every frame of the
// extension protocol, every lifecycle event payload, every json/rpc stream event, every rpc
// command and every protocol limit, as Markdown tables between `<!-- generated:KEY -->` and
// `<!-- /generated:KEY -->` markers. `npm run docs` rewrites them; test/docs/reference.test.ts
// fails when a doc's tables are not what the schemas say.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EXTENSION_FRAME_SCHEMAS } from "../../lib/protocol/extension-frames.ts";
import { HOST_FRAME_SCHEMAS } from "../../lib/protocol/host-frames.ts";
import * as limits from "../../lib/protocol/limits.ts";
import { LIFECYCLE_PAYLOAD_SCHEMAS } from "../../lib/events/lifecycle.ts";
import { STREAM_EVENT_SCHEMAS } from "../../lib/modes/stream-schema/events.ts";
import { RPC_COMMAND_SCHEMAS } from "../../lib/modes/rpc/rpc-commands.ts";
import { sdkSections } from "./sdk-reference.ts";

// valibot schemas, as far as the tables read them.
interface Schema {
  type: string;
  wrapped?: Schema;
  item?: Schema;
  options?: unknown[];
  literal?: unknown;
  entries?: Record<string, Schema>;
}

/** A field's type in a table cell. */
function typeOf(schema: Schema): string {
  switch (schema.type) {
    case "optional":
    case "exact_optional":
    case "nullish":
      return typeOf(schema.wrapped!);
    case "nullable":
      return `${typeOf(schema.wrapped!)} \\| null`;
    case "literal":
      return `\`${JSON.stringify(schema.literal)}\``;
    case "picklist":
      return (schema.options ?? []).map((o) => `\`${JSON.stringify(o)}\``).join(" \\| ");
    case "array":
      return `${typeOf(schema.item!)}[]`;
    case "union":
    case "variant":
      return [...new Set((schema.options as Schema[]).map(typeOf))].join(" \\| ");
    case "object":
    case "loose_object":
    case "strict_object":
    case "record":
      return "object";
    case "string":
    case "number":
    case "boolean":
      return schema.type;
    default:
      return "any";
  }
}

const optional = (schema: Schema) => ["optional", "exact_optional", "nullish"].includes(schema.type);

/** One object schema's fields, `type` left out (the heading names it). */
function fieldTable(schema: Schema): string {
  const rows = Object.entries(schema.entries ?? {}).filter(([name]) => name !== "type")
    .map(([name, field]) => `| \`${name}\` | ${typeOf(field)} | ${optional(field) ? "" : "yes"} |`);
  return rows.length ? ["| field | type | required |", "|---|---|---|", ...rows].join("\n") : "No fields besides `type`.";
}

function objectsSection(schemas: Record<string, unknown>, heading: string): string {
  return Object.entries(schemas).map(([name, schema]) => `${heading} \`${name}\`\n\n${fieldTable(schema as Schema)}`).join("\n\n");
}

function limitsTable(): string {
  const rows = Object.entries(limits).filter(([, value]) => typeof value === "number").sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `| \`${name}\` | ${(value as number).toLocaleString("en-US")} |`);
  return ["| limit | value |", "|---|---|", ...rows].join("\n");
}

/** Every generated section, by key. */
export function generatedSections(): Record<string, string> {
  return {
    "extension-frames": objectsSection(EXTENSION_FRAME_SCHEMAS, "####"),
    "host-frames": objectsSection(HOST_FRAME_SCHEMAS, "####"),
    "lifecycle-events": objectsSection(LIFECYCLE_PAYLOAD_SCHEMAS, "####"),
    limits: limitsTable(),
    "stream-events": objectsSection(STREAM_EVENT_SCHEMAS, "###"),
    "rpc-commands": objectsSection(RPC_COMMAND_SCHEMAS, "###"),
    ...sdkSections(),
  };
}

const MARKER = /<!-- generated:([a-z-]+) -->\n[\s\S]*?<!-- \/generated:\1 -->/g;

/** `markdown` with each marked section replaced by the schemas' table; unknown keys are an error. */
export function withGenerated(markdown: string, sections = generatedSections()): string {
  return markdown.replace(MARKER, (_, key: string) => {
    const body = sections[key];
    if (body === undefined) throw new Error(`no generated section "${key}"`);
    return `<!-- generated:${key} -->\n${body}\n<!-- /generated:${key} -->`;
  });
}

/** The docs that hold generated sections. */
export const GENERATED_DOCS = ["protocol.md", "json-stream.md", "sdk-typescript.md"];

if ((import.meta as { main?: boolean }).main) {
  const dir = join(import.meta.dirname, "..");
  for (const file of GENERATED_DOCS) {
    const path = join(dir, file);
    writeFileSync(path, withGenerated(readFileSync(path, "utf8")));
  }
}
