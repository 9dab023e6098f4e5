// How build.ts compiles the single binaries (and what the benchmark and tests compile the same way).
export const COMPILE_FLAGS: readonly string[] = [
  "--compile",
  // The binary embeds the chunks, and a chunk's node: built-ins load only with it (one chunk would
  // load every built-in any command imports, readline, zlib and all).
  "--splitting",
  "--minify",
  "--bytecode",
  "--format=esm",
  // Start with the JIT's call-count thresholds raised a thousandfold: a one-shot run's code mostly
  // runs once, and compiling it is wasted (lib/jit-policy.ts restores the policy after start-up).
  "--compile-jit-policy=1000",
  // A compiled Bun program otherwise reads bunfig.toml and .env from the directory it runs in: a
  // cloned repository's bunfig.toml `preload` would run its code inside zot, and its .env could
  // point ZOT_BASE_URL (and the API key sent there) at another server. zot reads its own settings.
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
];
