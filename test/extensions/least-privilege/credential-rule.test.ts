// The rule that keeps credentials out of full-access extensions, MCP servers and session exports:
// a variable is a credential by its name or by its value's shape, and a normal shell environment
// (PWD and OLDPWD included) is not.
import { describe, expect, it } from "vitest";
import { looksLikeCredential, secretParts } from "../../../lib/extensions/catalog/permissions/credential-rule.ts";
import { withoutCredentials } from "../../../lib/extensions/catalog/permissions/extension-env.ts";
import { LEAKED, SHELL } from "../../support/credential-env.ts";

describe("a variable is a credential by its name and its value's shape", () => {
  it.each(Object.entries(LEAKED))("%s is a credential", (name, value) => {
    expect(looksLikeCredential(name, value)).toBe(true);
  });

  it.each(Object.entries(SHELL))("%s of a normal shell is not", (name, value) => {
    expect(looksLikeCredential(name, value)).toBe(false);
  });

  it("a full-access extension's environment keeps the whole shell and loses every credential", () => {
    expect(withoutCredentials({ ...LEAKED, ...SHELL })).toEqual(SHELL);
  });

  it("PWD is the working folder only while it holds an absolute path; a key shape anywhere is a key", () => {
    expect(looksLikeCredential("PWD", "hunter2")).toBe(true);
    expect(looksLikeCredential("MYSQL_PWD", "/not/a/folder")).toBe(true);
    expect(looksLikeCredential("EDITOR", "code --token ghp_abcdefghijklmnopqrstuvwxyz0123456789")).toBe(true);
  });

  it("a URL names only a user for ssh-like schemes; any other user info is a token", () => {
    expect(looksLikeCredential("A", "ssh://git@github.com/o/r.git")).toBe(false);
    expect(looksLikeCredential("A", "ssh://git:pw@github.com/o/r.git")).toBe(true);
    expect(looksLikeCredential("A", "wss://tok@host/x")).toBe(true);
  });

  it("a credential's leaking parts are its URL password and its DSN keyword values", () => {
    expect(secretParts("postgres://app:p%40ss@db/app")).toEqual(["p%40ss", "p@ss"]);
    expect(secretParts("https://0123456789abcdef@git.example/r")).toEqual(["0123456789abcdef"]);
    expect(secretParts("host=db user=app password='two words' sslmode=require")).toEqual(["two words"]);
    expect(secretParts("Server=x;Pwd=s3cret;AccountKey=c2VjcmV0;")).toEqual(["s3cret", "c2VjcmV0"]);
  });
});
