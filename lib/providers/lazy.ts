// A provider whose module (and SDK) loads on its first stream: a run pays only for the provider
// it talks to, and a run that never reaches the model (a slash command, a setup error) for none.
import type { ModelStreamEvent, Provider, StreamRequest } from "./types.ts";

export interface LazyProvider extends Provider {
  /**
   * Starts loading now, for a run about to ask the model: the module then loads while the run
   * waits on files and extensions. A failed load is reported by the first stream, as without it.
   */
  warm(): void;
}

export function lazyProvider(name: string, load: () => Promise<Provider>): LazyProvider {
  let loading: Promise<Provider> | undefined;
  const start = () => {
    loading ??= load();
    return loading;
  };
  return {
    name,
    warm() {
      start().catch(() => {});
    },
    async *stream(request: StreamRequest): AsyncIterable<ModelStreamEvent> {
      yield* (await start()).stream(request);
    },
  };
}
