// Preloaded with `node --import`: writes every module the process loads to stderr, one
// `zot-load <url>` line each (file: URLs for the bundle's chunks, node: for built-ins), and a
// `zot-stream <name>` line when process.stdout, stderr or stdin is first built, so a test can
// tell what a run used.
import { writeSync } from "node:fs";
import { register } from "node:module";

register(`data:text/javascript,${encodeURIComponent(`
export async function load(url, context, next) {
  if (url.startsWith("file:") || url.startsWith("node:")) process.stderr.write("zot-load " + url + "\\n");
  return next(url, context);
}`)}`);

for (const name of ["stdout", "stderr", "stdin"]) {
  const descriptor = Object.getOwnPropertyDescriptor(process, name);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: descriptor.enumerable,
    get() {
      Object.defineProperty(process, name, descriptor);
      writeSync(2, `zot-stream ${name}\n`);
      return process[name];
    },
  });
}
