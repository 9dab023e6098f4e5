// /model and rpc set_model on a cloud preset: the cloud's own `org/model` ids stay on the cloud,
// `cloud/model` switches to it, and an id zot does not know is tried as given with a warning.
import { describe, expect, test } from "vitest";
import { checkModelChoice } from "../../lib/app/model-choice.ts";
import { parseModelSpec } from "../../lib/app/settings.ts";

describe("model choice on a cloud preset", () => {
  test("a known id of the current cloud that looks like provider/model stays on the cloud", () => {
    expect(parseModelSpec("openai/gpt-oss-120b", "groq")).toEqual({ model: "openai/gpt-oss-120b" });
    expect(checkModelChoice("openai/gpt-oss-120b", { provider: "groq" })).toEqual({ provider: "groq", model: "openai/gpt-oss-120b" });
    // Elsewhere the prefix still switches provider.
    expect(parseModelSpec("openai/gpt-oss-120b", "anthropic")).toEqual({ provider: "openai", model: "gpt-oss-120b" });
  });

  test("cloud/model switches to the cloud, even for an org/model id", () => {
    expect(checkModelChoice("groq/openai/gpt-oss-20b", { provider: "anthropic" })).toEqual({ provider: "groq", model: "openai/gpt-oss-20b" });
    expect(checkModelChoice("kimi/kimi-k3", { provider: "openai" })).toEqual({ provider: "kimi", model: "kimi-k3" });
  });

  test("an id zot does not know is used as given on a cloud, with a warning", () => {
    expect(checkModelChoice("grok-9-preview", { provider: "xai" })).toEqual({
      provider: "xai", model: "grok-9-preview",
      warning: "\"grok-9-preview\" is not a model zot knows for xai; used as given (zot --list-models --provider xai lists what xai offers)",
    });
    // Providers whose models zot knows still refuse an unknown id at their own endpoint.
    expect(() => checkModelChoice("gpt-9", { provider: "openai" })).toThrow('unknown model "gpt-9" for openai');
  });
});
