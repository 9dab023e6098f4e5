// Files imported as text (`with { type: "text" }`, supported by Bun and Deno; bun inlines them in
// the bundles it builds): the default export is the file's content.
declare module "*.py" {
  const text: string;
  export default text;
}
