// `zot ext marketplace add|list|update|remove`: Claude Code plugin marketplaces, whose plugins
// `zot ext install NAME@MARKETPLACE` installs.
import { defineCommand } from "citty";
import { printable } from "../../terminal-text.ts";
import { addMarketplace, listMarketplaces, removeMarketplace, updateMarketplace, type Marketplace } from "../../extensions/install/marketplace.ts";
import { UsageError } from "../args.ts";
import { rootsFor } from "./args.ts";

const VERBS = ["add", "list", "update", "remove"] as const;

const summary = (m: Marketplace) => `${m.name}: ${m.plugins.length} plugin${m.plugins.length === 1 ? "" : "s"} (${m.dir})`;

export const marketplaceCommand = defineCommand({
  meta: {
    name: "marketplace",
    description: "Add, list, update or remove Claude Code plugin marketplaces (zot ext install NAME@MARKETPLACE installs from them)",
  },
  args: {
    verb: { type: "positional", required: true, description: `One of ${VERBS.join(", ")}` },
    target: { type: "positional", required: false,
      description: "add: owner/repo, a git URL, a folder or a URL to a marketplace.json; update, remove: the marketplace's name" },
    plugins: { type: "boolean", description: "list: each marketplace's plugins too" },
  },
  async run({ args }) {
    const roots = rootsFor(undefined);
    const target = typeof args.target === "string" && args.target !== "" ? args.target : undefined;
    const out = (text: string) => process.stdout.write(printable(text));
    switch (args.verb) {
      case "add":
        if (!target) throw new UsageError("marketplace add needs a SOURCE (owner/repo, a git URL, a folder, a URL to a marketplace.json)");
        out(`Added ${summary(await addMarketplace(roots.paths, target, process.cwd()))}\nInstall one: zot ext install NAME@MARKETPLACE\n`);
        return 0;
      case "list": {
        const all = listMarketplaces(roots.paths);
        if (all.length === 0) out("No marketplaces. Add one with zot ext marketplace add SOURCE.\n");
        for (const m of all) {
          out(m.marketplace ? `${summary(m.marketplace)}  from ${m.source}\n` : `${m.name}: ${m.error}\n`);
          if (args.plugins && m.marketplace) for (const p of m.marketplace.plugins) out(`  ${p.name}@${m.name}  ${(p.description ?? "").slice(0, 100)}\n`);
        }
        return 0;
      }
      case "update":
        if (!target) throw new UsageError("marketplace update needs the marketplace's name");
        out(`Updated ${summary(await updateMarketplace(roots.paths, target, process.cwd()))}\n`);
        return 0;
      case "remove":
        if (!target) throw new UsageError("marketplace remove needs the marketplace's name");
        await removeMarketplace(roots.paths, target);
        out(`Removed marketplace ${target} (plugins installed from it stay; remove them with zot ext remove)\n`);
        return 0;
      default:
        throw new UsageError(`unknown marketplace command "${args.verb}" (${VERBS.join(", ")})`);
    }
  },
});
