/**
 * dependency-cruiser's settings for the package map in docs/architecture.md (npm run map,
 * tests/package-map.ts): Usher's packages are resolved through the workspace's links to their
 * TypeScript sources, as tsx and Vite resolve them.
 */
module.exports = {
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
