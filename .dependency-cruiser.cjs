/**
 * The layers of lib/ as a check (docs/architecture.md, "Layers"), run by `npm run lint`: every folder and top-level
 * module has a rank, and a module imports only modules of a lower rank (or of its own unit); no import cycle, type-only
 * imports included. The table is `RANKS` (scripts/layer-ranks.cjs), which the doc draws;
 * __tests__/core/layers.test.ts holds the two to each other and plants violations to prove the check fails on them.
 */

const { RANKS } = require('./scripts/layer-ranks.cjs');

const allUnits = RANKS.map(([, , path]) => path);

/** One rule per unit: it may not import a unit of its own rank or above (its own files excepted). */
const rankRules = RANKS.flatMap(([rank, unit, path]) => {
  const notBelow = RANKS.filter(([other, , otherPath]) => other >= rank && otherPath !== path).map(([, , p]) => p);
  if (notBelow.length === 0) return [];
  return [
    {
      name: 'rank',
      comment: `${unit} (rank ${rank}) imports only units of a lower rank (docs/architecture.md, "Layers").`,
      severity: 'error',
      from: { path },
      to: { path: notBelow },
    },
  ];
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle, type-only imports included: a type-only cycle is still a design cycle.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    ...rankRules,
    {
      name: 'sibling-folder',
      comment: "A codec never imports another codec's folder, a provider another provider's (their shared parts live lower).",
      severity: 'error',
      from: { path: '^lib/(protocols|providers)/([^/]+)/' },
      to: { path: '^lib/$1/[^/]+/', pathNot: ['^lib/$1/$2/', '^lib/protocols/shared/'] },
    },
    {
      name: 'codec-to-upstream',
      comment: 'A codec never imports the outbound HTTP client (lib/upstream/ is for providers).',
      severity: 'error',
      from: { path: '^lib/protocols/' },
      to: { path: '^lib/upstream/' },
    },
    {
      name: 'unranked',
      comment: 'Every module of lib/ belongs to a unit of the rank table: add a new folder or module to RANKS.',
      severity: 'error',
      from: { path: '^lib/', pathNot: allUnits },
      to: {},
    },
    {
      name: 'unranked',
      comment: 'Every module of lib/ belongs to a unit of the rank table: add a new folder or module to RANKS.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^lib/', pathNot: allUnits },
    },
    {
      name: 'unresolvable',
      comment: 'An import the check cannot resolve is an edge it cannot judge.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
  },
};
