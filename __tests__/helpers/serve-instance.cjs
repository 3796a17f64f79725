// What every gateway-instance script of the multi-process tests shares: serve a built gateway on 127.0.0.1 once it is
// ready, print one JSON line { port, pid }, close it (and its Redis client) on SIGTERM, and exit 1 with the reason if
// it cannot start.
'use strict';
const express = require('express');

/** Serves `gateway` (from `start`, which may be async) on a free port; `client` is disconnected on SIGTERM. */
function runInstance(start) {
  Promise.resolve()
    .then(start)
    .then(async ({ gateway, client }) => {
      await gateway.ready;
      const app = express();
      app.use(gateway);
      const server = app.listen(0, '127.0.0.1', () => {
        process.stdout.write(`${JSON.stringify({ port: server.address().port, pid: process.pid })}\n`);
      });
      process.on('SIGTERM', async () => {
        server.closeAllConnections();
        server.close();
        await gateway.close();
        client.disconnect();
        process.exit(0);
      });
    })
    .catch((error) => {
      process.stderr.write(`instance failed to start: ${error?.stack ? error.stack : error}\n`);
      process.exit(1);
    });
}

module.exports = { runInstance };
