// The file tools through the editor: when the client offers fs/read_text_file and
// fs/write_text_file, read, write and edit see its buffers (unsaved changes included) and their
// edits land in the editor. Images stay on the disk: the editor's methods carry text only.
import type * as acp from "@agentclientprotocol/sdk";
import { diskFiles, type FileAccess } from "../../tools/file-access.ts";

const IMAGE_FILE = /\.(png|jpe?g|gif|webp)$/i;

export function editorFiles(client: acp.AgentContext, sessionId: () => string, caps: acp.FileSystemCapabilities | undefined): FileAccess | undefined {
  if (!caps?.readTextFile && !caps?.writeTextFile) return undefined;
  return {
    async read(abs) {
      if (!caps.readTextFile || IMAGE_FILE.test(abs)) return diskFiles.read(abs);
      const { content } = await client.request("fs/read_text_file", { sessionId: sessionId(), path: abs });
      return Buffer.from(content, "utf8");
    },
    async writeText(abs, text) {
      if (!caps.writeTextFile) return diskFiles.writeText(abs, text);
      await client.request("fs/write_text_file", { sessionId: sessionId(), path: abs, content: text });
    },
  };
}
