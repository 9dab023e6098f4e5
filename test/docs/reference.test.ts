// The reference in docs/ says what the code does: the tables written from the schemas (every frame
// of the extension protocol, every lifecycle event, every json/rpc event and rpc command, every
// limit) are current, each of them has a place in a doc, and every link between the README and
// the docs leads to a file (and heading) that exists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_DOCS, generatedSections, withGenerated } from "../../docs/tools/reference-tables.ts";
import { EXTENSION_FRAME_SCHEMAS } from "../../lib/protocol/extension-frames.ts";
import { HOST_FRAME_SCHEMAS } from "../../lib/protocol/host-frames.ts";
import { LIFECYCLE_EVENTS } from "../../lib/events/names.ts";
import { STREAM_EVENT_SCHEMAS } from "../../lib/modes/stream-schema/events.ts";
import { RPC_COMMAND_TYPES } from "../../lib/modes/stream-schema/index.ts";

const ROOT = resolve(import.meta.dirname, "..", "..");
const DOCS = join(ROOT, "docs");
const read = (file: string) => readFileSync(file, "utf8");

describe("the reference written from the schemas", () => {
  it("every generated table in docs/ is what the schemas say now (npm run docs rewrites them)", () => {
    for (const file of GENERATED_DOCS) {
      const text = read(join(DOCS, file));
      expect(withGenerated(text), `docs/${file} is stale: run npm run docs`).toBe(text);
    }
  });

  it("every generated section has its place in a doc", () => {
    const all = GENERATED_DOCS.map((f) => read(join(DOCS, f))).join("\n");
    for (const key of Object.keys(generatedSections())) expect(all, key).toContain(`<!-- generated:${key} -->`);
  });

  it("every frame, lifecycle event, stream event and rpc command has a heading; none is documented that does not exist", () => {
    const headings = (file: string, level: string) =>
      [...read(join(DOCS, file)).matchAll(new RegExp(`^${level} \`([a-z_]+)\`$`, "gm"))].map((m) => m[1]!);
    const protocol = headings("protocol.md", "####");
    const expected = [...Object.keys(EXTENSION_FRAME_SCHEMAS), ...Object.keys(HOST_FRAME_SCHEMAS), ...LIFECYCLE_EVENTS];
    expect([...protocol].sort()).toEqual([...expected].sort());
    const stream = headings("json-stream.md", "###");
    expect([...stream].sort()).toEqual([...Object.keys(STREAM_EVENT_SCHEMAS), ...RPC_COMMAND_TYPES].sort());
  });
});

/** GitHub's anchor for a heading. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");

describe("links", () => {
  const files = [join(ROOT, "README.md"), ...readdirSync(DOCS).filter((f) => f.endsWith(".md")).map((f) => join(DOCS, f))];

  it("every relative link in the README and docs/ leads to a file, and to a heading of it when it names one", () => {
    const broken: string[] = [];
    for (const file of files) {
      const text = read(file).replace(/```[\s\S]*?```/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split("#") as [string, string | undefined];
        const goal = path === "" ? file : resolve(dirname(file), path);
        if (!existsSync(goal)) {
          broken.push(`${file.slice(ROOT.length + 1)}: ${target} (no such file)`);
          continue;
        }
        if (anchor && goal.endsWith(".md")) {
          const anchors = [...read(goal).matchAll(/^#+ (.+)$/gm)].map((m) => slug(m[1]!));
          if (!anchors.includes(anchor)) broken.push(`${file.slice(ROOT.length + 1)}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README links every doc", () => {
    const readme = read(join(ROOT, "README.md"));
    const docs = readdirSync(DOCS).filter((f) => f.endsWith(".md"));
    expect(docs.filter((f) => !readme.includes(`(docs/${f})`))).toEqual([]);
  });
});
