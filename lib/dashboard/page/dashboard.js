// The dashboard page (served by rosetta-gateway/dashboard): it fetches the aggregates from the dashboard's own API
// (api/summary, api/calls, api/live, relative to the page) and draws them with uPlot. No build step, no other files.

(() => {
  const $ = (id) => document.getElementById(id);
  const number = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
  const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });
  const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const charts = new Map();
  let timer;
  let lastCalls = [];

  const format = {
    count: (value) => (value >= 10_000_000 ? compact.format(value) : number.format(value)),
    ms: (value) =>
      value === null || value === undefined
        ? '–'
        : value >= 10_000
          ? `${number.format(value / 1000)} s`
          : `${Math.round(value)} ms`,
    name: (value, none) => (value === null || value === undefined ? none : value),
  };

  async function getJson(path) {
    const response = await fetch(path, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (!response.ok) throw new Error(`${path.split('?')[0]}: HTTP ${response.status}`);
    return response.json();
  }

  /** A table body's rows from arrays of cell texts (always as text: nothing from the log is read as HTML). */
  function fillRows(table, rows, empty) {
    const body = table.tBodies[0];
    body.replaceChildren();
    if (rows.length === 0) {
      const row = body.insertRow();
      const cell = row.insertCell();
      cell.colSpan = table.tHead.rows[0].cells.length;
      cell.className = 'muted';
      cell.textContent = empty;
      return [];
    }
    return rows.map((cells) => {
      const row = body.insertRow();
      for (const value of cells) {
        const cell = row.insertCell();
        if (value instanceof Node) cell.append(value);
        else cell.textContent = value;
      }
      return row;
    });
  }

  function badge(text, kind) {
    const span = document.createElement('span');
    span.className = `badge ${kind}`;
    span.textContent = text;
    return span;
  }

  const palette = {
    calls: '#2f6fdf',
    errors: '#d64545',
    input: '#7a5cd6',
    output: '#20a386',
    credits: '#d08a1c',
    p50: '#2f6fdf',
    p95: '#d64545',
  };

  function chartOptions(element, series, bars) {
    const width = Math.max(280, element.clientWidth - 8);
    return {
      width,
      height: 180,
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [
        { stroke: '#667' },
        { stroke: '#667', size: 56, values: (_u, ticks) => ticks.map((tick) => compact.format(tick)) },
      ],
      series: [
        {},
        ...series.map(([label, color]) => ({
          label,
          stroke: color,
          width: 1.5,
          fill: bars ? `${color}55` : undefined,
          paths: bars && uPlot.paths.bars ? uPlot.paths.bars({ size: [0.8, 40] }) : undefined,
          // A lone bucket of a line has no length: its points show it.
          points: { show: !bars, size: 5, fill: color },
          spanGaps: !bars,
        })),
      ],
    };
  }

  /** Draws (or redraws with new data) the chart in figure `id`. */
  function draw(id, series, data, bars) {
    const element = $(id);
    const existing = charts.get(id);
    if (existing && existing.series.length === series.length + 1) {
      existing.setData(data);
      return;
    }
    if (existing) existing.destroy();
    charts.set(id, new uPlot(chartOptions(element, series, bars), data, element));
  }

  function renderSummary(summary) {
    const { totals, series } = summary;
    $('calls-total').textContent = format.count(totals.calls);
    $('calls-split').textContent = `${format.count(totals.ok)} ok · ${format.count(totals.cancelled)} cancelled`;
    $('errors-total').textContent = format.count(totals.errors);
    $('errors-rate').textContent = totals.calls
      ? `${number.format((100 * totals.errors) / totals.calls)} % of calls`
      : '';
    $('tokens-total').textContent = format.count(totals.tokens);
    $('credits-total').textContent = format.count(totals.credits);
    $('latency-tile').textContent = `${format.ms(summary.latency.p50)} / ${format.ms(summary.latency.p95)}`;
    $('ttft-tile').textContent =
      `${format.ms(summary.timeToFirstToken.p50)} / ${format.ms(summary.timeToFirstToken.p95)}`;
    const truncated = $('truncated');
    truncated.hidden = !summary.truncated;
    truncated.textContent = summary.truncated
      ? `This window holds more calls than the dashboard reads: the figures are of the latest ${format.count(summary.scanned)}.`
      : '';

    draw(
      'chart-calls',
      [
        ['calls', palette.calls],
        ['errors', palette.errors],
      ],
      [series.time, series.calls, series.errors],
      true,
    );
    draw(
      'chart-tokens',
      [
        ['input', palette.input],
        ['output', palette.output],
      ],
      [series.time, series.inputTokens, series.outputTokens],
      true,
    );
    draw('chart-credits', [['credits', palette.credits]], [series.time, series.credits], true);
    draw(
      'chart-latency',
      [
        ['p50', palette.p50],
        ['p95', palette.p95],
      ],
      [series.time, series.latencyP50, series.latencyP95],
      false,
    );

    const spend = (row, none) => [
      format.name(row.name, none),
      format.count(row.calls),
      format.count(row.errors),
      format.count(row.tokens),
      format.count(row.credits),
    ];
    fillRows(
      $('top-keys'),
      summary.topKeys.map((row) => spend(row, '(no key: refused)')),
      'No calls in this window.',
    );
    fillRows(
      $('top-models'),
      summary.topModels.map((row) => spend(row, '(no model)')),
      'No calls in this window.',
    );
    const percentileRow = (label, p) => [
      label,
      format.count(p.count),
      format.ms(p.p50),
      format.ms(p.p90),
      format.ms(p.p95),
      format.ms(p.p99),
      format.ms(p.max),
    ];
    fillRows(
      $('percentiles'),
      [percentileRow('Latency', summary.latency), percentileRow('First token', summary.timeToFirstToken)],
      '',
    );
    fillRows(
      $('error-kinds'),
      summary.errorKinds.map((row) => [row.kind, String(row.status), format.count(row.count)]),
      'No errors.',
    );
    fillList(
      $('key-ids'),
      summary.topKeys.map((row) => row.name),
    );
    fillList(
      $('model-ids'),
      summary.topModels.map((row) => row.name),
    );
  }

  function fillList(list, names) {
    list.replaceChildren(
      ...names
        .filter((name) => name !== null)
        .map((name) => {
          const option = document.createElement('option');
          option.value = name;
          return option;
        }),
    );
  }

  function renderLive(body) {
    const live = body.live;
    if (!live) {
      $('open-streams').textContent = '–';
      $('in-flight').textContent = 'no gateway given';
      fillRows($('deployments'), [], 'The dashboard was created without the gateway: no live state.');
      return;
    }
    $('open-streams').textContent = format.count(live.openStreams);
    $('in-flight').textContent = `${format.count(live.callsInFlight)} calls in flight`;
    const states = { healthy: 'ok', cooling: 'error', probation: 'warn' };
    fillRows(
      $('deployments'),
      live.deployments.map((deployment) => {
        const failure = deployment.recentFailures[deployment.recentFailures.length - 1];
        return [
          deployment.name,
          deployment.models.join(', '),
          `${deployment.provider} · ${deployment.upstreamModel}`,
          badge(deployment.state, states[deployment.state] ?? 'warn'),
          deployment.cooldownUntil ? clock.format(new Date(deployment.cooldownUntil)) : '–',
          String(deployment.failures),
          String(deployment.inFlight),
          String(deployment.served),
          failure ? `${failure.kind ?? ''} ${failure.status ?? ''} at ${clock.format(new Date(failure.at))}` : '–',
        ];
      }),
      'No model is routed over several deployments.',
    );
  }

  function renderCalls(body) {
    lastCalls = body.calls;
    const outcomes = { ok: 'ok', error: 'error', cancelled: 'warn' };
    const rows = fillRows(
      $('calls'),
      body.calls.map((call) => {
        const { timings, usage } = call;
        const outcome = call.error
          ? `${call.outcome} ${call.status} ${call.error.kind}`
          : `${call.outcome} ${call.status}`;
        return [
          clock.format(new Date(timings.ended)),
          call.requestId,
          format.name(call.keyId, '–'),
          format.name(call.model ?? call.requestedModel, '–'),
          call.stream ? `${call.protocol} · stream` : call.protocol,
          badge(outcome, outcomes[call.outcome] ?? 'warn'),
          usage ? `${format.count(usage.inputTokens)} / ${format.count(usage.outputTokens)}` : '–',
          format.count(call.credits.charged),
          format.ms(timings.ended - timings.received),
          timings.firstByte === undefined ? '–' : format.ms(timings.firstByte - timings.received),
        ];
      }),
      'No calls match.',
    );
    rows.forEach((row, index) => {
      row.tabIndex = 0;
      row.className = 'call';
      row.dataset.index = String(index);
    });
    $('calls-count').textContent = `${body.calls.length} shown, newest first`;
  }

  function openRecord(index) {
    const call = lastCalls[index];
    if (!call) return;
    $('record-title').textContent = `Call ${call.requestId}`;
    $('record-json').textContent = JSON.stringify(call, null, 2);
    $('record').showModal();
  }

  function callsQuery() {
    const params = new URLSearchParams({ window: $('window').value, limit: '100' });
    const key = $('filter-key').value.trim();
    const model = $('filter-model').value.trim();
    const outcome = $('filter-outcome').value;
    if (key) params.set('key', key);
    if (model) params.set('model', model);
    if (outcome) params.set('outcome', outcome);
    return `api/calls?${params}`;
  }

  async function refresh() {
    const windowName = $('window').value;
    $('status').textContent = 'loading…';
    const started = performance.now();
    try {
      const [summary, calls, live] = await Promise.all([
        getJson(`api/summary?window=${encodeURIComponent(windowName)}`),
        getJson(callsQuery()),
        getJson('api/live'),
      ]);
      renderSummary(summary);
      renderCalls(calls);
      renderLive(live);
      $('status').textContent = `updated ${clock.format(new Date())} (${Math.round(performance.now() - started)} ms)`;
      document.body.dataset.loaded = String(Number(document.body.dataset.loaded ?? 0) + 1);
    } catch (error) {
      $('status').textContent = `could not load: ${error.message}`;
    }
  }

  async function refreshCalls() {
    try {
      renderCalls(await getJson(callsQuery()));
    } catch (error) {
      $('status').textContent = `could not load the calls: ${error.message}`;
    }
  }

  function schedule() {
    clearInterval(timer);
    if ($('auto').checked) timer = setInterval(refresh, 10_000);
  }

  $('window').addEventListener('change', refresh);
  $('refresh').addEventListener('click', refresh);
  $('auto').addEventListener('change', schedule);
  $('filters').addEventListener('submit', (event) => {
    event.preventDefault();
    refreshCalls();
  });
  $('filter-outcome').addEventListener('change', refreshCalls);
  $('filter-clear').addEventListener('click', () => {
    $('filter-key').value = '';
    $('filter-model').value = '';
    $('filter-outcome').value = '';
    refreshCalls();
  });
  const callsBody = $('calls').tBodies[0];
  callsBody.addEventListener('click', (event) => {
    const row = event.target.closest('tr.call');
    if (row) openRecord(Number(row.dataset.index));
  });
  callsBody.addEventListener('keydown', (event) => {
    const row = event.target.closest('tr.call');
    if (row && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      openRecord(Number(row.dataset.index));
    }
  });
  $('record-close').addEventListener('click', () => $('record').close());
  $('record').addEventListener('click', (event) => {
    if (event.target === $('record')) $('record').close();
  });
  window.addEventListener('resize', () => {
    for (const [id, chart] of charts) chart.setSize({ width: Math.max(280, $(id).clientWidth - 8), height: 180 });
  });

  refresh();
  schedule();
})();
