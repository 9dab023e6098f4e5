// The entries of the REPL's two pickers: this project's saved conversations (`/resume`) and the
// provider's models (`/model`).
import type { SessionListing } from "../../agent/session/session-select.ts";
import { readSession } from "../../agent/session/session-file.ts";
import { listModels } from "../../providers/index.ts";
import type { PickerItem } from "./picker.ts";
import { ageText } from "./recap.ts";

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
