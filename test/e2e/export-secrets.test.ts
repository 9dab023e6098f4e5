// A session export carries no secret a tool echoed: the --api-key value (read back from zot's own
// command line), a short password, a DSN and its password, base64 of the key. And it keeps the
// working folder: a normal shell's PWD is no secret. Both /export and `zot sessions export`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SHELL } from "../support/credential-env.ts";
import { makeWorld, type World } from "./support.ts";

const FLAG_KEY = "sk-ant-api03-flag-key-0123456789abcdef";
const SECRETS = { DB_PASS: "hunter2", PG_CONNINFO: "host=db user=app password=Tr0ub4dor sslmode=require", DATABASE_URL: "postgres://app:pgpass9@db/app" };
/** Echoes every secret the way a curious command would: zot's argv, base64 of the key, the variables, and the working folder. */
const SNOOP = [
  "ps -o args= -p $PPID",
  "ps -o args= -p $PPID | sed -n 's/.*--api-key \\([^ ]*\\).*/\\1/p' | tr -d '\\n' | base64",
  "printf 'Authorization: Basic %s\\n' \"$(printf 'user:%s' \"$(ps -o args= -p $PPID | sed -n 's/.*--api-key \\([^ ]*\\).*/\\1/p')\" | base64 -w0)\"",
  "echo \"pass=$DB_PASS dsn=$PG_CONNINFO url=$DATABASE_URL\"",
  "echo \"the password alone: ${PG_CONNINFO#*password=} and pgpass9\"",
  "pwd; echo \"PWD=$PWD OLDPWD=$OLDPWD\"",
].join("; ");

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function snoopedSession(): Promise<{ w: World; env: Record<string, string> }> {
  const w = await makeWorld([
    { tool_calls: [{ id: "snoop", name: "bash", args: { command: SNOOP } }], stop: "tool_use" },
    { text: "looked around" },
  ]);
  world = w;
  const env = { ...SHELL, ...SECRETS, PWD: w.cwd, OLDPWD: join(w.cwd, ".."), PATH: w.env.PATH!, HOME: w.env.HOME! };
  const run = await w.run(["-p", "--api-key", FLAG_KEY, "look around"], { env });
  expect(run.code, run.stderr).toBe(0);
  const echoed = JSON.stringify(w.server.requests[1]!.body.messages);
  // The attack worked: the tool output the model saw holds every secret.
  for (const secret of [FLAG_KEY, "hunter2", "Tr0ub4dor", "pgpass9", Buffer.from(FLAG_KEY).toString("base64").slice(0, 40)]) expect(echoed).toContain(secret);
  return { w, env };
}

function expectClean(path: string, w: World): void {
  const text = readFileSync(path, "utf8");
  const doc = JSON.parse(text) as { session: { cwd: string } };
  for (const secret of [FLAG_KEY, "hunter2", "Tr0ub4dor", "pgpass9", SECRETS.PG_CONNINFO, SECRETS.DATABASE_URL]) expect(text).not.toContain(secret);
  const base64 = Buffer.from(FLAG_KEY).toString("base64");
  expect(text).not.toContain(base64.slice(0, 24));
  expect(text).not.toContain(Buffer.from(`user:${FLAG_KEY}`).toString("base64").slice(8, 40));
  // The working folder is kept, in the header and in the tool output.
  expect(doc.session.cwd).toBe(w.cwd);
  expect(text).toContain(`PWD=${w.cwd} OLDPWD=${join(w.cwd, "..")}`);
  expect(text).toContain("[redacted]");
}

describe("a session export blanks what a tool echoed of the user's secrets, and keeps the working folder", () => {
  it("/export in a run given --api-key, with a normal shell environment", async () => {
    const { w, env } = await snoopedSession();
    const file = join(w.cwd, "out.zotsession");
    const exported = await w.run(["-c", "-p", "--api-key", FLAG_KEY, `/export ${file}`], { env });
    expect(exported.code, exported.stderr).toBe(0);
    expectClean(file, w);
  });

  it("zot sessions export, with the key in the environment instead", async () => {
    const { w, env } = await snoopedSession();
    const list = await w.run(["sessions", "--json"], { env });
    const id = (JSON.parse(list.stdout) as Array<{ id: string }>)[0]!.id;
    const file = join(w.cwd, "cli.zotsession");
    const exported = await w.run(["sessions", "export", id, file], { env: { ...env, ANTHROPIC_API_KEY: FLAG_KEY } });
    expect(exported.code, exported.stderr).toBe(0);
    expectClean(file, w);
  });
});
