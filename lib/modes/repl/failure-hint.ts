// What to do next after a failed model request, for the REPL's final red line: the status the
// provider answered with decides (the message starts `HTTP <status>` for an HTTP failure).

export function failureHint(error: string): string | undefined {
  const status = Number(/^HTTP (\d{3})\b/.exec(error)?.[1]);
  if (status === 529 || /overloaded/i.test(error)) return "The provider is overloaded: try again in a moment, or pick another model with /model.";
  if (status === 401 || status === 403) return "The provider refused the API key: save a working one with /login (or `zot login` in a shell).";
  if (status === 429) return "Rate limited by the provider: wait a moment and try again, or pick another model with /model.";
  if (/^connection error\b/.test(error)) return "The provider could not be reached: check the network (or --base-url) and try again.";
  return undefined;
}
