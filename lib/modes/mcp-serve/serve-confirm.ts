// Confirmation under `zot mcp serve --no-yolo`. Nobody sits at zot's terminal, so the question
// goes to the MCP client's user through elicitation (a one-field form); a client that cannot
// elicit gets every call refused, never silently run.
import type { ConfirmAnswer, Confirmer } from "../../agent/loop/permissions.ts";

/** What the confirmer needs from the MCP server: the client's capabilities and a form request. */
export interface ElicitingPeer {
  canElicit(): boolean;
  elicit(message: string, signal: AbortSignal): Promise<{ action: "accept" | "decline" | "cancel"; content?: Record<string, unknown> }>;
}

export const NO_ELICITATION = "the MCP client offers no elicitation, so zot mcp serve --no-yolo cannot ask anyone and refuses the call";

const ANSWERS: ReadonlyArray<{ const: ConfirmAnswer; title: string }> = [
  { const: "yes", title: "Yes, run it" },
  { const: "always_tool", title: "Yes, and do not ask again for this tool" },
  { const: "always_session", title: "Yes, and do not ask again" },
  { const: "no", title: "No" },
];

export const CONFIRM_SCHEMA = {
  type: "object" as const,
  properties: { answer: { type: "string" as const, title: "Run this tool call?", oneOf: [...ANSWERS] } },
  required: ["answer"],
};

export function elicitingConfirmer(peer: ElicitingPeer): Confirmer {
  return async (request) => {
    // A thrown error is a cancelled confirmation: the call is refused with this reason.
    if (!peer.canElicit()) throw new Error(NO_ELICITATION);
    const lines = [`zot wants to run ${request.toolName}: ${request.toolPreview}`];
    if (request.diff) lines.push("", request.diff);
    const reply = await peer.elicit(lines.join("\n"), request.signal);
    if (reply.action === "cancel") throw new Error("the MCP client cancelled the confirmation");
    if (reply.action === "decline") return "no";
    const answer = reply.content?.answer;
    return ANSWERS.some((a) => a.const === answer) ? (answer as ConfirmAnswer) : "no";
  };
}
