// Extension-owned panels, in one place for every mode: which panels are open, who owns them,
// which one has focus (the most recently opened), and the routing both ways. Panel state
// changes are published as ext_panel_open / ext_panel_render / ext_panel_close host events;
// renderers only draw them.
import type { HostEvent } from "../../events/index.ts";
import type { PanelContent, PanelRenderFrame } from "../../protocol/index.ts";
import type { LoadedExtension } from "../runtime/extension.ts";

export interface OpenPanel {
  extension: string;
  panelId: string;
  title?: string;
  lines?: string[];
  footer?: string;
}

interface PanelState extends OpenPanel {
  owner: LoadedExtension;
}

function content(src: { title?: string; lines?: string[]; footer?: string }): Pick<OpenPanel, "title" | "lines" | "footer"> {
  const out: Pick<OpenPanel, "title" | "lines" | "footer"> = {};
  if (src.title !== undefined) out.title = src.title;
  if (src.lines !== undefined) out.lines = [...src.lines];
  if (src.footer !== undefined) out.footer = src.footer;
  return out;
}

export class Panels {
  /** Insertion order is focus order: the last entry has focus. */
  private readonly open = new Map<string, PanelState>();

  /**
   * `mayOpenByRender(owner)`: whether a panel_render for a panel that is not open may open it
   * (host.md: only while that extension has an interactive tool call in flight).
   */
  constructor(private readonly publish: (event: HostEvent) => void, private readonly mayOpenByRender: (owner: LoadedExtension) => boolean) {}

  list(): OpenPanel[] {
    return [...this.open.values()].map(({ owner: _owner, ...panel }) => ({ ...panel }));
  }

  focused(): OpenPanel | undefined {
    return this.list().at(-1);
  }

  /** Opens (or re-opens and focuses) a panel for `owner`. */
  openPanel(owner: LoadedExtension, panel: PanelContent): void {
    const existing = this.open.get(panel.id);
    if (existing && existing.owner !== owner) {
      owner.warn(`cannot open panel "${panel.id}": it belongs to extension "${existing.owner.name}"`);
      return;
    }
    this.open.delete(panel.id);
    const state: PanelState = { owner, extension: owner.name, panelId: panel.id, ...content(panel) };
    this.open.set(panel.id, state);
    this.publish({ type: "ext_panel_open", extension: owner.name, panel_id: panel.id, ...content(panel) });
  }

  /**
   * A `panel_render` from an extension. An unknown panel id opens that panel only while the
   * extension runs an interactive tool call; otherwise it is ignored, so a tool's redraw of a
   * closed panel never steals the user's focus.
   */
  render(owner: LoadedExtension, frame: PanelRenderFrame): void {
    const state = this.open.get(frame.panel_id);
    if (!state) {
      if (this.mayOpenByRender(owner)) return this.openPanel(owner, { id: frame.panel_id, ...content(frame) });
      owner.log(`panel_render for panel "${frame.panel_id}", which is not open, ignored (only an interactive tool call may open a panel by rendering it)`);
      return;
    }
    if (state.owner !== owner) {
      owner.log(`panel_render for panel "${frame.panel_id}" of extension "${state.owner.name}" ignored`);
      return;
    }
    Object.assign(state, content(frame));
    this.publish({ type: "ext_panel_render", extension: owner.name, panel_id: frame.panel_id, ...content(frame) });
  }

  /** A `panel_close` from the extension that owns the panel. */
  closeFromExtension(owner: LoadedExtension, panelId: string): void {
    const state = this.open.get(panelId);
    if (!state || state.owner !== owner) return;
    this.open.delete(panelId);
    this.publish({ type: "ext_panel_close", extension: owner.name, panel_id: panelId });
  }

  /** The user closed a panel: tell its extension, drop it, publish the close. */
  closeFromUser(panelId: string): void {
    const state = this.open.get(panelId);
    if (!state) return;
    this.open.delete(panelId);
    state.owner.driver.deliver({ type: "panel_close", panel_id: panelId });
    this.publish({ type: "ext_panel_close", extension: state.owner.name, panel_id: panelId });
  }

  /** Routes a key to the extension that owns `panelId`. Returns false for an unknown panel. */
  key(panelId: string, key: string, text?: string): boolean {
    const state = this.open.get(panelId);
    if (!state) return false;
    state.owner.driver.deliver({ type: "panel_key", panel_id: panelId, key, ...(text !== undefined ? { text } : {}) });
    return true;
  }

  /** Drops every panel of an extension that went away (or all, on reload). */
  closeAllOf(owner?: LoadedExtension): void {
    for (const [id, state] of [...this.open]) {
      if (owner && state.owner !== owner) continue;
      this.open.delete(id);
      this.publish({ type: "ext_panel_close", extension: state.owner.name, panel_id: id });
    }
  }
}
