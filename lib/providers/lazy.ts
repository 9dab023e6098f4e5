// A provider whose module (and SDK) loads on its first stream: a run pays only for the provider
// it talks to, and a run that never reaches the model (a slash command, a setup error) for none.
import type { ModelStreamEvent, Provider, StreamRequest } from "./types.ts";

export function lazyProvider(name: string, load: () => Promise<Provider>): Provider {
  let loading: Promise<Provider> | undefined;
  return {
    name,
    async *stream(request: StreamRequest): AsyncIterable<ModelStreamEvent> {
      loading ??= load();
      yield* (await loading).stream(request);
    },
  };
}
