// The entries of the REPL's pickers: this project's saved conversations (`/resume`), the
// provider's models (`/model`), the prompts to fork at (`/fork`) and the branches (`/tree`).
import type { SessionListing } from "../../agent/session/session-select.ts";
import { readSession } from "../../agent/session/session-file.ts";
import type { Runtime } from "../../app/runtime.ts";
import { listModels } from "../../providers/index.ts";
import { Picker, type PickerItem } from "./picker.ts";
import { ageText, familyOf, type SessionBranch } from "../../agent/session/session-family.ts";

/** At most this many conversations are read for the picker (newest first). */
const SESSIONS_SHOWN = 30;

/** Each conversation with its first prompt, age and message count. */
export function sessionItems(listings: SessionListing[], currentId: string, now = Date.now()): PickerItem[] {
  return listings.filter((l) => l.id !== currentId).slice(0, SESSIONS_SHOWN).map((listing) => {
    const age = ageText(now - listing.modified.getTime());
    try {
      const { messages } = readSession(listing.path);
      const first = messages.find((m) => m.role === "user");
      const prompt = first?.content.map((b) => (b.type === "text" ? b.text : "")).join(" ").replace(/\s+/g, " ").trim();
      return { value: listing.id, label: prompt || "(no prompt yet)", detail: `${age} · ${messages.length} messages · ${listing.id}` };
    } catch {
      return { value: listing.id, label: "(unreadable)", detail: `${age} · ${listing.id}`, muted: true };
    }
  });
}

/** The provider's known models, deprecated ones marked and last. */
export function modelItems(provider: string, current: string): PickerItem[] {
  const models = listModels(provider);
  const ordered = [...models.filter((m) => !m.deprecated), ...models.filter((m) => m.deprecated)];
  return ordered.map((m) => ({
    value: m.id,
    label: m.id,
    detail: [m.id === current ? "current" : "", m.deprecated ? `deprecated, end of life ${m.deprecated}` : ""].filter(Boolean).join(" · "),
    ...(m.deprecated ? { muted: true } : {}),
  }));
}

/** An open picker and the command its choice runs (`/resume ID`, `/model ID`). */
export interface OpenPicker {
  widget: Picker;
  command: string;
}

/** The conversation's family (else every conversation), each branch indented under the one it was forked from. */
export function treeItems(tree: { current: string; families: SessionBranch[] }, now = Date.now()): PickerItem[] {
  const own = familyOf(tree.families, tree.current);
  const items: PickerItem[] = [];
  const visit = (branch: SessionBranch, depth: number) => {
    const s = branch.session;
    const open = s.id === tree.current;
    const fork = s.parent ? `forked at message ${s.parent.message_index} · ` : "";
    items.push({ value: s.id, label: `${"  ".repeat(depth)}${depth > 0 ? "└ " : ""}${s.firstPrompt || "(no prompt yet)"}`,
      detail: `${open ? "open · " : ""}${fork}${ageText(now - s.modified.getTime())} · ${s.messages} messages · ${s.id}`, ...(open ? { muted: true } : {}) });
    for (const child of branch.children) visit(child, depth + 1);
  };
  for (const root of own ? [own] : tree.families) visit(root, 0);
  return items;
}

/** The picker `/resume`, `/model`, `/fork` or `/tree` without an argument opens; none for other commands, or with nothing to pick. */
export async function pickerFor(name: string | undefined, rt: Pick<Runtime, "recentSessions" | "session" | "branches" | "checkpoints">): Promise<OpenPicker | undefined> {
  if (name === "fork") {
    const items = (await rt.branches()).forkPoints().map((p) => ({ value: String(p.index), label: p.text, detail: `message ${p.index}` }));
    return items.length > 0 ? { widget: new Picker("Fork this conversation before which prompt?", items, items.at(-1)!.value), command: "/fork" } : undefined;
  }
  if (name === "rewind") {
    const recorded = new Set(rt.checkpoints.list().map((c) => c.index));
    const items = (await rt.branches()).forkPoints().map((p) => ({ value: String(p.index), label: p.text,
      detail: `message ${p.index}${recorded.has(p.index) ? " · changed files" : ""}` }));
    return items.length > 0
      ? { widget: new Picker("Rewind files and conversation to before which prompt? (/rewind N files|conversation for one)", items, items.at(-1)!.value), command: "/rewind" }
      : undefined;
  }
  if (name === "tree") {
    const items = treeItems((await rt.branches()).tree());
    return items.length > 0 ? { widget: new Picker("Switch to a branch of this conversation", items), command: "/resume" } : undefined;
  }
  if (name === "resume") {
    const items = sessionItems(rt.recentSessions(), rt.session.sessionId);
    // With nothing to resume the command itself says so.
    return items.length > 0 ? { widget: new Picker("Resume a conversation of this project", items), command: "/resume" } : undefined;
  }
  if (name === "model") {
    const { provider, model } = rt.session.state;
    const items = modelItems(provider, model);
    return items.length > 0 ? { widget: new Picker(`Model for ${provider} (now ${model})`, items, model), command: "/model" } : undefined;
  }
  return undefined;
}
