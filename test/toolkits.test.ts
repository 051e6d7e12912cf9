/**
 * Real SOAP toolkits against the real service (docs/CLIENTS.md): Perl SOAP::Lite, PHP SoapClient, Python
 * zeep and suds, Java JAX-WS, C# with a Mono-generated .NET proxy, node-soap. Each client under test/toolkits/<tool>/
 * calls the seven operations in its own idiom (through the WSDL where the toolkit has one), reads a
 * fact out of each result and the code of a fault, and prints a table; this file asserts the table.
 * A toolkit that is not installed is SKIPPED with the reason, and FAILS when CI=true (.ci/run installs them).
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { OPERATION_NAMES } from '../src/operations/table.ts';
import { contact } from './cases/store.case.ts';
import { startRealService, type RealService } from './support/real-service.ts';

const DIR = join(import.meta.dirname, 'toolkits');

/** What each client reads out of each operation's result for the contacts below. */
const EXPECTED: Record<string, string> = {
  GetPredictiveOptionsSearchContacts: 'k1', // {"Text":"zoë ång"}: non-ASCII (SOAP::Lite sends it base64Binary)
  GetPredictiveOptions: 'Stockholm',
  GetSearchResults: 'k2',
  GetSearchResultHeaders: 'DisplayName',
  GetSearchFilters: 'MultiSelect', // the Country filter's control
  GetRequestSupport: 'ImportContacts',
  ProcessRequest: 'Zoë', // GetContact k1's FirstName, out of the response XML string
};
const FAULT = { soap11: 'Client UnknownDatabase DBName', soap12: 'Sender UnknownDatabase DBName' };

interface Toolkit {
  name: string;
  /** The Debian packages (or npm package) it needs, for the skip message. */
  needs: string;
  bindings: ('soap11' | 'soap12')[];
  /** The command and arguments after which the endpoint follows; undefined when the toolkit is missing. */
  command(): [string, string[]] | undefined;
}

const ok = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
/** Debian's python3-* packages live under /usr/bin/python3, which a PATH python (pyenv, venv) may not see. */
const pythonWith = (module: string) =>
  ['/usr/bin/python3', 'python3'].find((py) => ok(py, ['-c', `import ${module}`]));

const TOOLKITS: Toolkit[] = [
  {
    name: 'perl',
    needs: 'Debian libsoap-lite-perl (Perl SOAP::Lite)',
    bindings: ['soap11', 'soap12'],
    command: () =>
      ok('perl', ['-MSOAP::Lite', '-MJSON::PP', '-e1'])
        ? ['perl', [join(DIR, 'perl/client.pl')]]
        : undefined,
  },
  {
    name: 'php',
    needs: 'Debian php-cli and php-soap (SoapClient)',
    bindings: ['soap11', 'soap12'],
    command: () =>
      ok('php', ['-r', 'exit(class_exists("SoapClient") ? 0 : 1);'])
        ? ['php', [join(DIR, 'php/client.php')]]
        : undefined,
  },
  {
    name: 'zeep',
    needs: 'Debian python3-zeep',
    bindings: ['soap11', 'soap12'],
    command: () => {
      const py = pythonWith('zeep');
      return py ? [py, [join(DIR, 'zeep/client.py')]] : undefined;
    },
  },
  {
    name: 'suds',
    needs: 'Debian python3-suds',
    bindings: ['soap11'],
    command: () => {
      const py = pythonWith('suds');
      return py ? [py, [join(DIR, 'suds/client.py')]] : undefined;
    },
  },
  {
    name: 'java',
    needs: 'Debian jaxws, libjaxws-java and a JDK (wsimport, javac, the JAX-WS 2.3 runtime)',
    bindings: ['soap11', 'soap12'],
    command: () =>
      ok('sh', [
        '-c',
        'command -v wsimport && command -v javac && test -r /usr/share/java/jaxws-rt.jar',
      ])
        ? ['sh', [join(DIR, 'java/run.sh')]]
        : undefined,
  },
  {
    name: 'dotnet',
    needs: "Debian mono-devel (Mono's wsdl proxy generator, mcs, mono)",
    bindings: ['soap11', 'soap12'],
    command: () =>
      ok('sh', ['-c', 'command -v wsdl && command -v mcs && command -v mono'])
        ? ['sh', [join(DIR, 'dotnet/run.sh')]]
        : undefined,
  },
  {
    name: 'node',
    needs: 'npm soap (a devDependency)',
    bindings: ['soap11', 'soap12'],
    command: () => ['node', [join(DIR, 'node/client.mjs')]],
  },
];

let svc: RealService;
before(async () => {
  svc = await startRealService({
    contacts: [
      contact('k1', 'Zoë', 'Ångström', {
        Organization: 'Nordic AB',
        City: 'Stockholm',
        Country: 'SE',
      }),
      contact('k2', 'John', 'Smith', { Organization: 'Acme', City: 'Boston', Country: 'US' }),
    ],
  });
});
after(async () => {
  await svc?.close();
});

/** The table's rows as `binding operation` → result. */
function table(stdout: string, toolkit: string): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^(\S+)\s+(\S+)\s+(\S+)\s+(.*)$/.exec(line.trimEnd());
    if (!m || m[1] === 'toolkit') continue;
    assert.equal(m[1], toolkit, `a row of ${toolkit}: ${line}`);
    rows.set(`${m[2]} ${m[3]}`, m[4]);
  }
  return rows;
}

for (const kit of TOOLKITS) {
  test(`${kit.name}: all seven operations and a fault`, async (t) => {
    const command = kit.command();
    if (!command) {
      const why = `${kit.name} is not installed: needs ${kit.needs}`;
      if (process.env.CI === 'true')
        assert.fail(`${why}; .ci/run installs it, so under CI it must be there`);
      t.skip(`SKIPPED ${why}`);
      return;
    }
    const [cmd, args] = command;
    // Asynchronous: the server answering the client runs in this process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>(
      (resolve) => {
        execFile(
          cmd,
          [...args, svc.endpoint],
          { encoding: 'utf8', timeout: 180_000, env: { ...process.env, LC_ALL: 'C.UTF-8' } },
          (err, stdout, stderr) =>
            resolve({
              status: err ? (typeof err.code === 'number' ? err.code : null) : 0,
              stdout,
              stderr,
            }),
        );
      },
    );
    const context = `\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr.slice(-3000)}`;
    assert.equal(run.status, 0, `${kit.name} exited ${run.status}${context}`);
    const rows = table(run.stdout, kit.name);
    const want = new Map<string, string>();
    for (const b of kit.bindings) {
      for (const op of OPERATION_NAMES) want.set(`${b} ${op}`, EXPECTED[op]);
      want.set(`${b} fault`, FAULT[b]);
    }
    assert.deepEqual(
      Object.fromEntries(rows),
      Object.fromEntries(want),
      `${kit.name}'s table${context}`,
    );
    for (const line of run.stdout.trimEnd().split('\n')) t.diagnostic(line);
  });
}
