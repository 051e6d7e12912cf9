/** Starts the real HTTP server on a free loopback port for black-box tests. */
import type { AddressInfo } from 'node:net';
import { defaultConfig, type Config } from '../../src/config.ts';
import { createServer } from '../../src/http/server.ts';
import { createLogger, type Log } from '../../src/log.ts';
import type { Service } from '../../src/service/types.ts';

export interface Running {
  base: string;
  endpoint: string;
  config: Config;
  close(): Promise<void>;
}

export async function startServer(
  service: Service,
  overrides: Partial<Config> = {},
  log?: Log,
): Promise<Running> {
  const config = { ...defaultConfig(), port: 0, ...overrides };
  // `log` sees each line the server logs at info and above, as the pino logger wrote it.
  const logger =
    log &&
    createLogger({
      level: 'info',
      destination: {
        write: (line: string) => {
          const o = JSON.parse(line);
          log(o.level, o.msg, o);
        },
      },
    });
  const server = createServer({ config, service, ...(logger ? { logger } : {}) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    endpoint: `${base}/DesktopModules/${config.module}_Common/WebServices/API.asmx`,
    config,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
