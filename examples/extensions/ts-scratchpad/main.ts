// ts-scratchpad: a notes scratchpad shared by the user and the model, built on zot's TypeScript
// SDK. It shows a command, tools (one deferred, activated by a loader; one interactive, honouring
// its abort signal), a panel with keys, interceptors, an event subscription and callTool.
// Run it with ./run.sh (bun or deno), or bundle it for Node: see README.md.
import { join } from "node:path";

import {
  activateTools,
  CallToolError,
  createExtension,
  display,
  errorResult,
  noop,
  openPanel,
  textResult,
  type PanelView,
} from "../../../mod.ts";
import { NoteStore } from "./store.ts";

const ext = createExtension({ name: "ts-scratchpad", version: "1.0.0" });
const PANEL = "scratchpad";
const STORE_FILE = "scratchpad.json";

// Opened in onHello: the host tells us where our data lives.
let store: NoteStore | undefined;
let storeError = "the scratchpad is not open yet";
/** Interactive tool calls waiting for the user's next note. */
const waiting = new Set<(note: string) => void>();
let cursor = 0;

ext.onHello((host) => {
  try {
    store = new NoteStore(join(host.dataDir ?? host.extensionDir ?? process.cwd(), STORE_FILE));
  } catch (err) {
    // Never overwrite a file we cannot read: refuse to work with it until it is fixed.
    storeError = `cannot open the scratchpad: ${(err as Error).message}`;
    ext.log(storeError);
    ext.notify("error", storeError);
  }
});

/** The open store; throws (an error reply, thanks to the SDK) when it could not be opened. */
function notes(): NoteStore {
  if (!store) throw new Error(storeError);
  return store;
}

// --- commands --------------------------------------------------------------------------------

ext.command("scratch", "add a note (/scratch <text>) or list the notes (/scratch)", (args) => {
  if (args === "") return display(notes().numbered());
  const n = notes().add(args);
  for (const deliver of [...waiting]) deliver(args);
  return display(`Noted (#${n}).`);
});

ext.command("scratch-import", "add a file of the project as a note (/scratch-import <path>)", async (args) => {
  if (args === "") return noop("usage: /scratch-import <path>");
  try {
    // Through the host, so its guards and permission policy apply as for the model's calls.
    const result = await ext.callTool("read", { path: args });
    const body = result.content.map((block) => (block.type === "text" ? block.text : `[${block.mime_type}]`)).join("\n");
    if (result.isError) return noop(`could not read ${args}: ${body}`);
    return display(`Imported ${args} as note #${notes().add(body)}.`);
  } catch (err) {
    return noop(err instanceof CallToolError ? err.message : String(err));
  }
});

// --- panel -----------------------------------------------------------------------------------

function panelView(): PanelView {
  const list = notes().list();
  cursor = Math.min(cursor, Math.max(0, list.length - 1));
  return {
    title: `Scratchpad (${list.length})`,
    lines: list.length === 0 ? ["(empty)"] : list.map((n, i) => `${i === cursor ? "›" : " "} ${n}`),
    footer: "↑/↓ move · x delete · esc close",
  };
}

ext.command("scratch-panel", "browse the notes in a panel", () => openPanel(PANEL, panelView()));

ext.onPanelKey(PANEL, (key, text) => {
  if (key === "up") cursor = Math.max(0, cursor - 1);
  else if (key === "down") cursor += 1;
  else if (key === "delete" || (key === "rune" && text === "x")) notes().remove(cursor);
  else return;
  ext.renderPanel(PANEL, panelView());
});

ext.onPanelClose(PANEL, () => {
  cursor = 0;
});

// --- tools -----------------------------------------------------------------------------------

ext.tool("scratch_read", { description: "Read the user's scratchpad notes." }, () => textResult(notes().numbered()));

ext.tool(
  "scratch_tools",
  { description: "Enable the tools that change the scratchpad (scratch_write)." },
  () => activateTools(["scratch_write"], textResult("scratch_write is now available.")),
);

ext.tool(
  "scratch_write",
  {
    description: "Append a note to the user's scratchpad.",
    schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    deferred: true,
  },
  (args) => {
    if (typeof args.text !== "string" || args.text.trim() === "") return errorResult("text must be a non-empty string");
    return textResult(`Saved as note #${notes().add(args.text)}.`);
  },
);

ext.tool(
  "scratch_wait_note",
  {
    description: "Ask the user to add a note with /scratch and wait for it. Returns the note.",
    interactive: true,
  },
  (_args, ctx) =>
    new Promise((resolve) => {
      const finish = (): void => {
        waiting.delete(onNote);
        ctx.signal.removeEventListener("abort", onAbort);
        ext.clearNotes();
      };
      const onNote = (note: string): void => {
        finish();
        resolve(textResult(note));
      };
      // Cancelled, or zot is going away: stop waiting (the host ignores this result).
      const onAbort = (): void => {
        finish();
        resolve(errorResult("No note: the wait was cancelled."));
      };
      if (ctx.signal.aborted) return onAbort();
      waiting.add(onNote);
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      ext.notify("info", "The assistant is waiting for a note: type /scratch <text>");
    }),
);

// --- interceptors and events -----------------------------------------------------------------

ext.interceptBeforeAgentStart(
  (event) => `${event.systemPrompt}\n\nThe user keeps a scratchpad of notes; read it with the scratch_read tool.`,
);

// The model must go through scratch_write, never edit the file behind the store's back.
ext.interceptToolCallX((tool, args) => {
  if ((tool === "write" || tool === "edit") && String(args.path ?? "").endsWith(STORE_FILE)) {
    return { block: true, reason: "The scratchpad file is managed by ts-scratchpad: use scratch_tools, then scratch_write." };
  }
  return undefined;
});

ext.on("session_start", () => {
  const count = notes().list().length;
  if (count > 0) ext.notify("info", `${count} note${count === 1 ? "" : "s"} in the scratchpad (/scratch-panel)`);
});

await ext.run();
