/** The rank table of lib/ (docs/architecture.md, "Layers"), checked by .dependency-cruiser.cjs. */

/** [rank, unit, path pattern]: the units of lib/, lowest first. Units of one rank are siblings: neither imports the other. */
const RANKS = [
  [
    0,
    'core',
    '^lib/(canonical/|(json|errors|warnings|percent-decode|suggest|token-bound|hops|log|config-check|arrays|promise)\\.ts$)',
  ],
  [1, 'store contract', '^lib/stores/types\\.ts$'],
  [1, 'wire facts', '^lib/wire/'],
  [2, 'codec contract', '^lib/protocols/types\\.ts$'],
  [3, 'usage records', '^lib/usage/'],
  [4, 'model config', '^lib/model-config\\.ts$'],
  [5, 'provider contract', '^lib/providers/(types|cancellation|call-context)\\.ts$'],
  [6, 'tokenizer', '^lib/tokenizer\\.ts$'],
  [7, 'streams', '^lib/stream/'],
  [7, 'outbound HTTP', '^lib/upstream/'],
  [7, 'inbound HTTP', '^lib/http/'],
  [7, 'stores', '^lib/stores/(?!types\\.ts$|redis/)'],
  [7, 'codec helpers', '^lib/protocols/shared/'],
  [8, 'Redis stores', '^lib/stores/redis/'],
  [8, 'codecs', '^lib/protocols/(?!shared/)[^/]+/'],
  [8, 'providers', '^lib/providers/[^/]+/'],
  [9, 'rate limits', '^lib/rate-limit/'],
  [9, 'resolved providers', '^lib/resolved-provider\\.ts$'],
  [9, 'codec registry', '^lib/protocols/registry\\.ts$'],
  [9, 'provider registry', '^lib/providers/registry\\.ts$'],
  [10, 'deployment routing', '^lib/routing/'],
  [11, 'model table', '^lib/models\\.ts$'],
  [11, 'metrics', '^lib/metrics/'],
  [11, 'tracing', '^lib/tracing/'],
  [12, 'quota maths', '^lib/quota\\.ts$'],
  [12, 'options', '^lib/options/'],
  [13, 'pipeline', '^lib/pipeline/'],
  [14, 'factory', '^lib/gateway\\.ts$'],
  [15, 'public API', '^lib/(index|extend)\\.ts$'],
  [15, 'dashboard', '^lib/dashboard/'],
];

module.exports = { RANKS };
