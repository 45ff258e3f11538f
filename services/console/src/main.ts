// npm run console [-- --port <n>] [--host <loopback address>]
// The researchers' console as a process of its own, outside every measured variant
// (libs/console-server console-server.ts, through the wiring's standaloneConsole): it launches
// every plan — matrix, findings and faults included — and keeps watching while the presets under
// test come and go. Loopback only; signed in with the token in run/console/token.
import { join, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { isLoopbackAddress } from '@shellgrade/http';
import { loadConnections } from '@shellgrade/variant';
import { standaloneConsole } from '@shellgrade/wiring/console';

const REPO = resolve(__dirname, '../../../..');
const TOKEN_FILE = join(REPO, 'run', 'console', 'token');

const port = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('a TCP port (1-65535)');
  return n;
};
const loopbackHost = (v: string): string => {
  if (!isLoopbackAddress(v)) throw new InvalidArgumentError('a loopback address (127.0.0.1, ::1): the console launches and cancels runs on this machine, and answers no one else');
  return v;
};

const program = new Command('console')
  .description("the researchers' console outside every variant: launch, watch and cancel any plan; compare, trends, findings, faults")
  .option('--port <n>', 'TCP port', port, 58088)
  .option('--host <address>', 'loopback address to listen on', loopbackHost, '127.0.0.1')
  .action((f: { port: number; host: string }) => {
    const app = standaloneConsole(loadConnections(process.env), TOKEN_FILE);
    const server = app.listen(f.port, f.host, () => {
      const url = `http://${f.host.includes(':') ? `[${f.host}]` : f.host}:${f.port}/`;
      process.stdout.write(`console listening on ${url}\nsign in as "console" with the token in ${TOKEN_FILE}\n`);
    });
    server.on('error', (error) => {
      process.stderr.write(`console: ${error.message}\n`);
      process.exit(1);
    });
    // Live pages hold server-sent event streams open: close them too, or close() would wait for ever.
    const stop = () => {
      server.close(() => process.exit(0));
      server.closeAllConnections();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });

program.parse();
