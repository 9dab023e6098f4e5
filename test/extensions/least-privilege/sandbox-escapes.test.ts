// Escapes 2–5: a declared permissions block confines the process to what it lists, whatever it
// leaves out; granted paths are resolved before they are mounted; the #! line mounts only the
// interpreter that will run; and root inside the sandbox has no capability and no root-only file.
// Real bubblewrap, a real Node extension, one $ZOT_HOME per test.
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { extensionLogPath } from "../../../lib/paths.ts";
import { sandbox, startHost, type Sandbox } from "../helpers.ts";
import { probe, probeExtension } from "../probe-extension.ts";

let sb: Sandbox;
let server: Server | undefined;
beforeEach(async () => void (sb = await sandbox()));
afterEach(async () => {
  server?.close();
  server = undefined;
  await sb.cleanup();
});

const log = (name = "probe") => readFileSync(extensionLogPath(sb.paths, name), "utf8");

async function loopback(): Promise<number> {
  server = createServer((socket) => socket.end());
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return (server!.address() as { port: number }).port;
}

/** A secret outside every grant. */
function secret(): string {
  const path = join(sb.root, "secret.txt");
  writeFileSync(path, "hunter2");
  return path;
}

describe("escape 2: a permissions block without fs or network", () => {
  it("confines files, network and environment to what it lists (nothing here)", async () => {
    const key = "ZOT_TEST_ANTHROPIC_API_KEY";
    process.env[key] = "sk-secret";
    try {
      const path = secret();
      const port = await loopback();
      probeExtension(sb, { permissions: { tools: [], events: [], ui: [] } });
      const t = await startHost(sb);
      expect(t.host.reports()[0]!.isolation).toMatchObject({ sandbox: "bubblewrap", pid_namespace: true, network: false });
      expect(await probe(t, sb, { action: "env", names: [key] })).toEqual({ text: `${key}=-`, isError: false });
      expect(await probe(t, sb, { action: "read", path })).toEqual({ text: "read: ENOENT", isError: true });
      expect((await probe(t, sb, { action: "write", path: join(sb.cwd, "planted.txt") })).isError).toBe(true);
      expect(existsSync(join(sb.cwd, "planted.txt"))).toBe(false);
      expect((await probe(t, sb, { action: "connect", port })).isError).toBe(true);
    } finally {
      delete process.env[key];
    }
  });
});

describe("escape 3: granted paths are resolved before they are mounted", () => {
  it("a shipped {extension}/link pointing outside is not mounted, with a warning", async () => {
    const path = secret();
    const dir = probeExtension(sb, { permissions: { fs: { read: ["{extension}/link"] } } });
    symlinkSync(sb.root, join(dir, "link"));
    const t = await startHost(sb);
    expect(await probe(t, sb, { action: "read", path })).toEqual({ text: "read: ENOENT", isError: true });
    expect(await probe(t, sb, { action: "read", path: join(dir, "link", "secret.txt") })).toEqual({ text: "read: ENOENT", isError: true });
    expect(log()).toContain(`warning: fs path "{extension}/link" resolves to ${sb.root} through a symlink, outside`);
  });

  it("a link the extension made in its data folder is not followed on the next run", async () => {
    const outside = join(sb.root, "outside");
    mkdirSync(outside);
    probeExtension(sb, { permissions: { fs: { write: ["{data}/out"] } } });
    const dataDir = join(sb.paths.home, "extension-data", "probe");
    const first = await startHost(sb);
    expect(await probe(first, sb, { action: "symlink", target: outside, path: join(dataDir, "out") })).toEqual({ text: "linked", isError: false });
    await first.host.shutdown();
    const second = await startHost(sb);
    expect((await probe(second, sb, { action: "write", path: join(outside, "planted.txt") })).isError).toBe(true);
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
    expect(log()).toMatch(/warning: fs path "\{data\}\/out" resolves to .*outside through a symlink, outside/);
  });

  it("a data folder that is a symlink is refused: the extension does not start", async () => {
    const outside = join(sb.root, "outside");
    mkdirSync(outside);
    mkdirSync(join(sb.paths.home, "extension-data"), { recursive: true });
    symlinkSync(outside, join(sb.paths.home, "extension-data", "probe"));
    probeExtension(sb, { permissions: { network: "none" } });
    const t = await startHost(sb);
    expect(t.host.reports()[0]!.errors.join("\n")).toMatch(/data folder .*extension-data\/probe is a symlink/);
    expect(t.host.tools()).toEqual([]);
  });
});

describe("escape 6: a grant that contains zot's home does not show it", () => {
  for (const grant of ["{project}", "/"]) {
    it(`fs.read and fs.write of ${grant}, with zot's home inside, neither read auth.json nor plant an extension; the data folder stays writable`, async () => {
      writeFileSync(join(sb.paths.home, "auth.json"), '{"anthropic":"sk-ant-secret"}');
      probeExtension(sb, { permissions: { fs: { read: [grant], write: [grant] } } });
      // Started in the folder that holds zot's home (as a user starting zot in ~ is).
      const t = await startHost(sb, { cwd: sb.root });
      expect(t.host.reports()[0]!.errors).toEqual([]);
      expect((await probe(t, sb, { action: "read", path: join(sb.paths.home, "auth.json") })).isError).toBe(true);
      const planted = join(sb.paths.extensions, "planted", "extension.json");
      await probe(t, sb, { action: "sh", command: `mkdir -p ${join(sb.paths.extensions, "planted")} && echo '{}' > ${planted}` });
      expect(existsSync(planted)).toBe(false);
      const data = join(sb.paths.home, "extension-data", "probe", "state.txt");
      expect(await probe(t, sb, { action: "write", path: data })).toEqual({ text: "wrote", isError: false });
      expect(existsSync(data)).toBe(true);
    });
  }
});

describe("escape 4: the #! line mounts only the interpreter that runs", () => {
  /** A sh extension whose first line is `line`, answering hello and listing `vault`. */
  function shebangExtension(name: string, line: string): string {
    const dir = join(sb.globalDir, name);
    mkdirSync(dir, { recursive: true });
    const script = join(dir, "ext");
    writeFileSync(script, `${line}\nprint('{"type":"hello","name":"${name}","version":"1"}', flush=True)\nimport sys\nfor l in sys.stdin: pass\n`);
    chmodSync(script, 0o755);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, exec: "./ext", permissions: { network: "none" } }));
    return dir;
  }

  it("env options zot cannot prove are refused, abbreviations and clusters included: the folder a #! line names is never mounted", async () => {
    const vault = join(sb.root, "vault");
    mkdirSync(join(vault, "bin"), { recursive: true });
    writeFileSync(join(vault, "bin", "tool"), "secret tool");
    const lines = {
      unset: `#!/usr/bin/env -S -u ${vault}/bin/tool python3`,
      abbreviated: `#!/usr/bin/env -S --uns ${vault}/bin/tool /usr/bin/python3`,
      equals: `#!/usr/bin/env -S --unset=${vault}/bin/tool python3`,
      chdir: `#!/usr/bin/env -S --ch ${vault} python3`,
      cluster: `#!/usr/bin/env -iS ${vault}/bin/tool python3`,
      glued: `#!/usr/bin/env -S--uns ${vault}/bin/tool python3`,
      dashdash: `#!/usr/bin/env -S -- ${vault}/bin/tool`,
      ignore: `#!/usr/bin/env -i ${vault}/bin/tool`,
    };
    for (const [name, line] of Object.entries(lines)) shebangExtension(name, line);
    const t = await startHost(sb);
    for (const report of t.host.reports()) {
      expect(report.errors.join("\n"), report.name).toMatch(/gives env the options .* which zot cannot verify/);
      expect(report.isolation?.read_only?.some((p) => p.startsWith(vault)) ?? false, report.name).toBe(false);
      expect(log(report.name), report.name).not.toContain("secret tool");
    }
  });

  it("the two forms zot can prove still run: env PROGRAM and env -S NAME=VALUE PROGRAM ARGS", async () => {
    shebangExtension("plain", "#!/usr/bin/env python3");
    shebangExtension("split", "#!/usr/bin/env -S PYTHONIOENCODING=utf-8 python3 -u");
    const t = await startHost(sb);
    for (const report of t.host.reports()) expect(report.errors, report.name).toEqual([]);
  });

  it("a relative or .. interpreter is refused", async () => {
    shebangExtension("relative", "#!../../vault/bin/tool");
    shebangExtension("dotdot", "#!/usr/bin/env -S ../../vault/bin/python3");
    const t = await startHost(sb);
    const errors = Object.fromEntries(t.host.reports().map((r) => [r.name, r.errors.join("\n")]));
    expect(errors.relative).toMatch(/names the interpreter "\.\.\/\.\.\/vault\/bin\/tool"; a sandboxed extension's interpreter must be an absolute path without "\.\."/);
    expect(errors.dotdot).toMatch(/names the program "\.\.\/\.\.\/vault\/bin\/python3"/);
  });
});

describe.runIf(process.getuid?.() === 0)("escape 5: zot as root", () => {
  it("the sandbox has no capability: a remount fails, its folder and the Python SDK stay read-only, /etc/shadow is unreadable", async () => {
    const dir = probeExtension(sb, { permissions: { network: "none" } });
    const t = await startHost(sb);
    expect((await probe(t, sb, { action: "sh", command: "grep CapEff /proc/self/status" })).text).toMatch(/CapEff:\s+0+\n/);
    const remount = await probe(t, sb, { action: "sh", command: `mount -o remount,bind,rw ${dir} 2>&1; touch ${dir}/trojan` });
    expect(remount.isError).toBe(true);
    expect(existsSync(join(dir, "trojan"))).toBe(false);
    expect((await probe(t, sb, { action: "read", path: "/etc/shadow" })).isError).toBe(true);
    expect(t.host.reports()[0]!.isolation!.hidden).toContain("/etc/shadow");
  });
});

describe("the environment of a full-access extension", () => {
  const credentials = { OPENAI_API_KEYS: "k1,k2", GITHUB_PAT: "ghp_x", DATABASE_URL: "postgres://app:pw@db/app", MYSQL_PWD: "pw",
    SENTRY_DSN: "https://key@sentry.example/1", ZOT_TEST_ANTHROPIC_API_KEY: "sk-x", AWS_SECRET_ACCESS_KEY: "s", ZOT_RPC_TOKEN: "t" };
  const plain = { ZOT_TEST_PLAIN: "plain", PUBLIC_URL: "https://example.com/app" };

  it("loses every variable whose name or value looks like a credential; config.json's env passes one back", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, credentials, plain);
    try {
      writeFileSync(sb.paths.config, JSON.stringify({ extensions: { probe: { env: ["GITHUB_PAT"] } } }));
      probeExtension(sb, {});
      const t = await startHost(sb);
      const names = [...Object.keys(credentials), ...Object.keys(plain)];
      const seen = Object.fromEntries((await probe(t, sb, { action: "env", names })).text.split(" ").map((pair) => pair.split("=")));
      expect(seen).toEqual({ OPENAI_API_KEYS: "-", GITHUB_PAT: "ghp_x", DATABASE_URL: "-", MYSQL_PWD: "-", SENTRY_DSN: "-",
        ZOT_TEST_ANTHROPIC_API_KEY: "-", AWS_SECRET_ACCESS_KEY: "-", ZOT_RPC_TOKEN: "-", ZOT_TEST_PLAIN: "plain", PUBLIC_URL: "https://example.com/app" });
    } finally {
      for (const name of [...Object.keys(credentials), ...Object.keys(plain)]) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});
