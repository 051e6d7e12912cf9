/**
 * Search-cost attacks of issue 27, against the real server in a child process (so that a server that
 * runs out of heap fails this test instead of killing the test runner) over the default 10,000-contact
 * Demo database. Over SOAP 1.1 and HTTP POST, type-ahead (both operations) and GetSearchResults' Query:
 * - twelve one-letter tokens and one that matches nothing ("a a … a xx": killed the server),
 * - 128 one-letter tokens ("a a … a", within the 256-character Text limit: held the event loop).
 * Each gets an answer or the documented refusal (PayloadTooLarge), a normal client's request sent
 * meanwhile is answered, the server is still up, and its watchdog (200 ms) counts no block from the
 * moment every database is searchable (start-up is test/live-start and hostile-load's concern).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  envelope,
  errorCode,
  metric,
  operationElement,
  send,
  soapHeaders,
  withNormalClient,
  type Answer,
} from './support/attack.ts';
import { startChildService, type ChildService } from './support/child-service.ts';

let svc: ChildService;
/** The watchdog's count once every database is searchable: start-up's own blocks are not this test's. */
let blocksBefore = 0;

before(
  async () => {
    svc = await startChildService({ limits: { eventLoopBlockMs: 200 } }, [
      '--max-old-space-size=1024',
    ]);
    blocksBefore = await metric(svc.base, 'contact_search_event_loop_blocks_total');
  },
  { timeout: 120_000 },
);

after(() => {
  svc?.close();
});

const TWELVE = `${'a '.repeat(12)}xx`;
const MANY = Array.from({ length: 128 }, () => 'a').join(' ');
/** Each search operation with the member the text goes in, and the others it needs. */
const OPS = [
  ['GetPredictiveOptionsSearchContacts', 'Text', {}],
  ['GetPredictiveOptions', 'Text', { Field: 'City' }],
  ['GetSearchResults', 'Query', {}],
] as const;

function call(binding: 'soap11' | 'post', op: string, json: string): Promise<Answer> {
  const params = { StringOfJSONParameters: json, DBName: 'Demo', AsType: 'JSON' };
  if (binding === 'post') {
    return send(`${svc.endpoint}/${op}`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });
  }
  return send(svc.endpoint, {
    headers: soapHeaders('1.1', op),
    body: envelope('1.1', operationElement(op, params)),
  });
}

for (const [name, text] of [
  ['twelve one-letter tokens and "xx"', TWELVE],
  ['128 one-letter tokens', MANY],
]) {
  test(`${name}: answered or refused as documented, over SOAP 1.1 and HTTP POST`, async () => {
    for (const binding of ['soap11', 'post'] as const) {
      for (const [op, member, others] of OPS) {
        const a = await withNormalClient(svc.endpoint, () =>
          call(binding, op, JSON.stringify({ ...others, [member]: text })),
        );
        assert.ok(
          a.status === 200 || errorCode(a) === 'PayloadTooLarge',
          `${binding} ${op}: ${a.status} ${errorCode(a)} ${a.body.slice(0, 200)}`,
        );
        assert.equal(
          (await send(`${svc.base}/healthz`)).status,
          200,
          `the server is up after ${binding} ${op}`,
        );
      }
    }
  });
}

test('the event loop was never blocked over 200 ms by the searches', async () => {
  assert.equal(
    (await metric(svc.base, 'contact_search_event_loop_blocks_total')) - blocksBefore,
    0,
    `longest block ${await metric(svc.base, 'contact_search_event_loop_longest_block_seconds')} s; ${JSON.stringify(svc.logged().slice(-3))}`,
  );
});
