/**
 * `p`, or what `late()` gives (or throws) once `ms` pass first: a store that stopped answering (a cut
 * network sends no error) holds neither an answer nor /metrics up. The timer is cleared either way.
 */
export function withinMs<T>(p: Promise<T>, ms: number, late: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(late());
      } catch (err) {
        reject(err);
      }
    }, ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
