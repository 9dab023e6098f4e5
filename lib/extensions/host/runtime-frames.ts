// Frames an extension sends on its own, after start-up (notes, submit, panels, call_tool, late
// replies): checked against its ui grant, then routed to the part of the host that owns them.
import type { HostEvent } from "../../events/index.ts";
import type { ExtensionFrame } from "../../protocol/index.ts";
import { uiGrantOf } from "../catalog/permissions/extension-permissions.ts";
import type { CallToolRouter } from "./call-tool.ts";
import type { LoadedExtension } from "../runtime/extension.ts";
import type { Panels } from "./panels.ts";

export interface RuntimeFrameRoutes {
  publish(event: HostEvent): void;
  panels: Panels;
  callTool: CallToolRouter;
  /** An interactive host's prompt queue for `submit`; absent: submit is logged and ignored. */
  onSubmit?: (extension: string, text: string) => void;
}

export function routeRuntimeFrame(ext: LoadedExtension, frame: ExtensionFrame, routes: RuntimeFrameRoutes): void {
  const ui = uiGrantOf(frame.type);
  if (ui && !ext.permissions.allowsUi(ui)) {
    return ext.permissions.refuse("ui", ui, `${frame.type} ignored: "${ui}" is not in permissions.ui`);
  }
  switch (frame.type) {
    case "notify":
      return routes.publish({ type: "ext_notify", extension: ext.name, level: frame.level ?? "info", message: frame.message });
    case "clear_notes":
      return routes.publish({ type: "ext_clear_notes", extension: ext.name });
    case "submit":
      if (!frame.text.trim()) return;
      if (routes.onSubmit) return routes.onSubmit(ext.name, frame.text);
      return ext.log("submit ignored: this mode has no interactive prompt queue");
    case "panel_render":
      return routes.panels.render(ext, frame);
    case "panel_close":
      return routes.panels.closeFromExtension(ext, frame.panel_id);
    case "call_tool":
      return routes.callTool.handle(ext, frame);
    case "call_tool_cancel":
      return routes.callTool.cancel(ext, frame.id);
    case "tool_result":
    case "command_response":
    case "event_intercept_response":
      return ext.log(`${frame.type} for unknown or finished request ${frame.id} ignored (late reply?)`);
    case "shutdown_ack":
      return;
    default:
      return ext.log(`unexpected ${frame.type} frame ignored`);
  }
}
