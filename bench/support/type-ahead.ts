/**
 * One type-ahead request as the in-process benches time it: GetPredictiveOptionsSearchContacts with
 * Limit 10, AsType JSON, through `service.invoke` (any checkout's service: bench:typing-ab passes
 * another tree's), answering the milliseconds it took and the answer's text.
 */
import type { OperationRequest, OperationResult } from '../../src/service/types.ts';

export interface Invokes {
  invoke(req: OperationRequest): Promise<OperationResult>;
}

export function typeAhead(service: Invokes): (text: string) => Promise<[number, string]> {
  return async (Text) => {
    const t = performance.now();
    const r = await service.invoke({
      op: 'GetPredictiveOptionsSearchContacts',
      StringOfJSONParameters: JSON.stringify({ Text, Limit: 10 }),
      DBName: 'Demo',
      AsType: 'JSON',
      caller: { binding: 'soap11', loopback: true },
    });
    if (r.kind !== 'text') throw new Error(`AsType JSON answered ${r.kind}`);
    return [performance.now() - t, r.text];
  };
}
