// OpenTelemetry for the example server: with OTEL_EXPORTER_OTLP_ENDPOINT set, the spans the gateway makes
// (docs/operations.md, "Traces") are exported over OTLP/HTTP; without it nothing is loaded and the gateway's tracing
// stays the API's no-op. The SDK and the exporter are not dependencies of the package (a host brings its own SDK):
// install them to use this (`npm install --no-save @opentelemetry/sdk-trace-node@2 @opentelemetry/exporter-trace-otlp-http@0.219`
// on Node 20; their newer majors need Node 22).
// The exporter reads the standard variables itself (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, …) and
// the service is named by OTEL_SERVICE_NAME (default here: rosetta-gateway).

/** Starts exporting when the environment asks for it; resolves to a function that flushes and stops (or does nothing). */
export async function startTracing(env) {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return async () => {};
  let node;
  let otlp;
  try {
    node = await import('@opentelemetry/sdk-trace-node');
    otlp = await import('@opentelemetry/exporter-trace-otlp-http');
  } catch {
    console.error(
      'OTEL_EXPORTER_OTLP_ENDPOINT is set but the OpenTelemetry SDK is not installed: npm install --no-save @opentelemetry/sdk-trace-node@2 @opentelemetry/exporter-trace-otlp-http@0.219 (spans are not exported).',
    );
    return async () => {};
  }
  env.OTEL_SERVICE_NAME ??= 'rosetta-gateway';
  const provider = new node.NodeTracerProvider({
    spanProcessors: [new node.BatchSpanProcessor(new otlp.OTLPTraceExporter())],
  });
  // The AsyncLocalStorage context manager and the W3C trace-context propagator: traceparent in and out.
  provider.register();
  console.log(`traces: exported over OTLP to ${env.OTEL_EXPORTER_OTLP_ENDPOINT}`);
  return () => provider.shutdown().catch((error) => console.error(`trace export shutdown failed: ${error.message}`));
}
