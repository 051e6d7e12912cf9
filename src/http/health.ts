/**
 * GET /healthz: what a load balancer or supervisor asks before it sends a node traffic
 * (docs/DEPLOYMENT.md "Load balancer"). 200 `ok` when every database is searchable and its store
 * answers; 503 otherwise — as JSON while databases are still loading after a start (their names and
 * the contacts read so far), as one text line per database whose store does not answer.
 */
import { CONTENT_TYPE } from '../protocol/constants.ts';
import type { WireResponse } from '../protocol/wire.ts';

export function health(
  down: readonly { name: string; reason: string }[],
  loading: readonly { name: string; read: number }[],
): WireResponse {
  const headers = { 'Cache-Control': 'no-store' };
  if (loading.length)
    return {
      status: 503,
      headers: { ...headers, 'Content-Type': CONTENT_TYPE.json },
      body: `${JSON.stringify({
        status: 'loading',
        loading: loading.map((d) => ({ database: d.name, contactsRead: d.read })),
        ...(down.length ? { down: down.map((d) => ({ database: d.name, reason: d.reason })) } : {}),
      })}\n`,
    };
  const body = down.length
    ? down.map((d) => `database ${d.name} unavailable: ${d.reason}\n`).join('')
    : 'ok\n';
  return {
    status: down.length ? 503 : 200,
    headers: { ...headers, 'Content-Type': CONTENT_TYPE.text },
    body,
  };
}
