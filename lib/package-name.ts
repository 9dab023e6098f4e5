// zot's name on the npm registry (`zot` there is another project); package.json must agree.
export const NPM_PACKAGE = "@zot-cli/zot";
