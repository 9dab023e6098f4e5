// The trust question's lines about the user's variables, and the provider-key refusal, on their own.
import { describe, expect, it } from "vitest";
import type { Candidate } from "../../../lib/extensions/catalog/candidate.ts";
import { providerKeyProblem } from "../../../lib/extensions/catalog/permissions/passed-variables.ts";
import { passedEnv, userFailurePolicies } from "../../../lib/extensions/catalog/permissions/user-policy.ts";
import { pendingOf } from "../../../lib/extensions/catalog/trust/host-trust.ts";

const candidate = (manifest: Record<string, unknown>): Candidate =>
  ({ name: "remote", dir: "/p/.zot/extensions/remote", scope: "project", decision: "untrusted", loaded: { manifest } }) as unknown as Candidate;

describe("the variables a project's bundle would get", () => {
  it("the REPL's trust question lists what a url extension expands and what config.json passes", () => {
    const pending = pendingOf(candidate({ name: "remote", url: "wss://h/${TEAM_PATH}", headers: { A: "Bearer ${TEAM_TOKEN}" } }), ["GITHUB_TOKEN"]);
    expect(pending.permissions).toContain("sends your ${TEAM_PATH}, ${TEAM_TOKEN} (expanded into its URL or headers)");
    expect(pending.permissions).toContain("gets GITHUB_TOKEN from your environment (config.json passes it)");
  });

  it("an .mcp.json entry's command, arguments and environment count too; every provider's key is refused", () => {
    expect(providerKeyProblem({ mcp: { command: "x", args: ["--key=${OPENAI_API_KEY}"] } } as never)).toMatch(/\$\{OPENAI_API_KEY\}/);
    expect(providerKeyProblem({ mcp: { command: "x", env: { K: "${GEMINI_API_KEY}" } } } as never)).toMatch(/\$\{GEMINI_API_KEY\}/);
    expect(providerKeyProblem({ url: "wss://h/", headers: { A: "${TEAM_TOKEN}" } })).toBeUndefined();
  });

  it("config.json's env is the global copy's; projects.<folder>.env is that project copy's only", () => {
    const policies = userFailurePolicies({ extensions: { gh: { env: ["A"], projects: { "/p": { env: ["B"] } } } } } as never);
    expect(passedEnv(policies, { name: "gh", scope: "global" }, "/p")).toEqual(["A"]);
    expect(passedEnv(policies, { name: "gh", scope: "explicit" }, "/p")).toEqual(["A"]);
    expect(passedEnv(policies, { name: "gh", scope: "project" }, "/p")).toEqual(["B"]);
    expect(passedEnv(policies, { name: "gh", scope: "project" }, "/q")).toEqual([]);
    expect(userFailurePolicies({ extensions: { gh: { projects: { "/p": { env: "B" } } } } } as never).problems.get("gh")).toMatch(/projects/);
  });
});
