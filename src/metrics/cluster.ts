/**
 * `/metrics` with worker processes (docs/DESIGN.md "Worker processes"). node:cluster hands a scrape to
 * any one worker, yet Prometheus must see the whole server: the worker asks the primary, which
 * gathers every worker's registry and merges them with prom-client's AggregatorRegistry.aggregate
 * (counters and histograms summed; per-process series keep their `worker` label).
 *
 * prom-client's own clusterMetrics() fails the whole scrape when one worker does not answer within
 * 5 s (one still indexing at start, or blocked); here a worker that does not answer within
 * COLLECT_MS is left out and counted in contact_search_workers{state="silent"}.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { registry } from './metrics.ts';

const ASK = 'contact-search:cluster-metrics?';
const ANSWER = 'contact-search:cluster-metrics';
const COLLECT = 'contact-search:worker-metrics?';
const COLLECTED = 'contact-search:worker-metrics';
const COLLECT_MS = 3000;

interface Message {
  type?: string;
  id?: number;
  text?: string;
  error?: string;
  metrics?: unknown;
}
type WorkerMetrics = Awaited<ReturnType<typeof registry.getMetricsAsJSON>>;

let asked = 0;
const answers = new Map<number, (m: Message) => void>();
let joined = false;

/**
 * In a worker, as early as possible (before its databases are indexed): answers the primary's
 * collections, so that a worker still starting does not hold up the others' scrapes.
 */
export function joinClusterMetrics(): void {
  if (joined || !cluster.isWorker) return;
  joined = true;
  process.on('message', (m: Message) => {
    if (m?.type === COLLECT) {
      registry.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: COLLECTED, id: m.id, metrics }),
        (err: Error) => process.send?.({ type: COLLECTED, id: m.id, error: err.message }),
      );
    } else if (m?.type === ANSWER && m.id !== undefined) {
      answers.get(m.id)?.(m);
    }
  });
}

/** The text /metrics answers: this process's registry, or the whole cluster's when this is a worker. */
export function metricsText(): Promise<string> {
  if (!cluster.isWorker) return registry.metrics();
  joinClusterMetrics();
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      answers.delete(id);
      reject(new Error("the primary did not answer for the cluster's metrics"));
    }, COLLECT_MS * 2).unref();
    answers.set(id, (m) => {
      clearTimeout(timer);
      answers.delete(id);
      if (m.error !== undefined) reject(new Error(m.error));
      else resolve(m.text ?? '');
    });
    process.send!({ type: ASK, id });
  });
}

/** In the primary: gathers and merges the workers' metrics for the worker that asked. */
export function serveClusterMetrics(): void {
  let collecting = 0;
  const pending = new Map<
    number,
    { got: WorkerMetrics[]; waiting: Set<number>; done: () => void }
  >();
  cluster.on('message', (worker: Worker, m: Message) => {
    if (m?.type === COLLECTED && m.id !== undefined) {
      const p = pending.get(m.id);
      if (!p || !p.waiting.delete(worker.id)) return;
      if (m.metrics) p.got.push(m.metrics as WorkerMetrics);
      if (p.waiting.size === 0) p.done();
      return;
    }
    if (m?.type !== ASK) return;
    const id = ++collecting;
    const workers = Object.values(cluster.workers ?? {}).filter(
      (x): x is Worker => !!x && x.isConnected(),
    );
    const p = {
      got: [] as WorkerMetrics[],
      waiting: new Set(workers.map((x) => x.id)),
      done: () => {},
    };
    pending.set(id, p);
    new Promise<void>((resolve) => {
      p.done = resolve;
      setTimeout(resolve, COLLECT_MS).unref();
      for (const x of workers) x.send({ type: COLLECT, id });
      if (workers.length === 0) resolve();
    })
      .then(async () => {
        pending.delete(id);
        const state = {
          name: 'contact_search_workers',
          help: 'Worker processes in this scrape: answered, or silent (did not answer in time; their figures are missing).',
          type: 'gauge',
          aggregator: 'sum',
          values: [
            { labels: { state: 'answered' }, value: p.got.length },
            { labels: { state: 'silent' }, value: p.waiting.size },
          ],
        };
        const text = await AggregatorRegistry.aggregate([
          ...p.got,
          [state],
        ] as WorkerMetrics[]).metrics();
        if (worker.isConnected()) worker.send({ type: ANSWER, id: m.id, text });
      })
      .catch((err: Error) => {
        if (worker.isConnected()) worker.send({ type: ANSWER, id: m.id, error: err.message });
      });
  });
}
