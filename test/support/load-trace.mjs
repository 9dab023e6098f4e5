// Preloaded with `node --import`: writes every file module the process loads to stderr, one
// `zot-load <url>` line each, so a test can tell which of the bundle's chunks a run used.
import { register } from "node:module";

register(`data:text/javascript,${encodeURIComponent(`
export async function load(url, context, next) {
  if (url.startsWith("file:")) process.stderr.write("zot-load " + url + "\\n");
  return next(url, context);
}`)}`);
