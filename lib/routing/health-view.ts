/** The deployments' health view, `gateway.deployments` (docs/routing.md, *Health view*). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { logProvider } from '../log';
import type { DeploymentRouter, RoutedModel } from './router';

/**
 * The health view's handler, `gateway.deployments`: mount it where your operators look
 * (`app.get('/admin/deployments', auth, gateway.deployments)`); it answers `{ deployments: DeploymentView[] }` as JSON,
 * read-only and without any key.
 */
export type DeploymentsHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** A health view handler over a router and its table's models. */
export function deploymentsHandler(
  router: Pick<DeploymentRouter, 'view'>,
  models: () => readonly RoutedModel[],
): DeploymentsHandler {
  return (_request, response) => {
    router.view(models()).then(
      (deployments) => {
        if (response.headersSent || response.destroyed) return;
        const body = JSON.stringify({ deployments });
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(Buffer.byteLength(body)),
          'cache-control': 'no-store',
        });
        response.end(body);
      },
      (error: unknown) => {
        logProvider('the deployment view failed: %O', error);
        if (response.headersSent || response.destroyed) return;
        response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
        response.end(JSON.stringify({ error: { message: 'The deployment view could not be read.' } }));
      },
    );
  };
}
