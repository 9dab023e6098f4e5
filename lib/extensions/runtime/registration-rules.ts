// What a registration must look like to be usable. The frame schemas only check types; these
// rules check what the model providers will check, because one tool they reject fails every
// request of the session, whichever extension it came from. A registration that breaks a rule
// is dropped and reported; the rest of its extension keeps working.
import type { RegisterCommandFrame, RegisterToolFrame } from "../../protocol/index.ts";

/** The tool-name pattern Anthropic and OpenAI both accept. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Why a tool registration cannot be offered to a model, or undefined when it can. */
export function toolRegistrationProblem(frame: Pick<RegisterToolFrame, "name" | "schema">): string | undefined {
  if (!TOOL_NAME_PATTERN.test(frame.name)) {
    return `a tool name must match ${TOOL_NAME_PATTERN.source} (letters, digits, "_" and "-", at most 64)`;
  }
  const schema = frame.schema;
  if (schema === undefined) return undefined; // an empty object schema is used
  if (schema.type !== "object") {
    return `its schema must be a JSON Schema object with "type": "object" (got "type": ${JSON.stringify(schema.type) ?? "nothing"})`;
  }
  const { properties, required } = schema;
  if (properties !== undefined && (typeof properties !== "object" || properties === null || Array.isArray(properties))) {
    return `its schema's "properties" must be an object`;
  }
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === "string"))) {
    return `its schema's "required" must be an array of strings`;
  }
  return undefined;
}

/** Why a command registration cannot be typed as `/name`, or undefined when it can. */
export function commandRegistrationProblem(frame: Pick<RegisterCommandFrame, "name">): string | undefined {
  if (frame.name.startsWith("/")) return `a command name must not start with "/" (zot adds it)`;
  if (/\s/.test(frame.name)) return "a command name must not contain spaces";
  return undefined;
}

/** The diagnostic for a dropped registration: extension, registration and rule. */
export function droppedRegistrationMessage(extension: string, kind: "tool" | "command", name: string, rule: string): string {
  const shown = name.length > 80 ? `${JSON.stringify(`${name.slice(0, 80)}…`)} (${name.length} characters)` : JSON.stringify(name);
  return `extension "${extension}": ${kind} ${shown} was dropped: ${rule}`;
}
