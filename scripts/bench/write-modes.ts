// How a body is best handed to the socket, by size: as a one-byte (latin1) string written with the headers
// in one write(2), or as a Buffer (a gathered write of the headers and the bytes). A bare node:http server
// pinned to the server core answers one body of each size each way, and wrk on the client core measures
// it (1 s of warm-up, then 4 s). public-reads.ts's ONE_WRITE_BYTES comes from it. A tool; `npm run bench`
// does not run it.
//   node scripts/bench/write-modes.ts [size ...]
import { execFileSync, spawn } from 'node:child_process';
import { CORES, round, WRK } from './load.ts';

const PORT = 9801;
const sizes = process.argv.slice(2).map(Number);
const SERVER = `
  const { createServer } = require('node:http');
  const [size, mode] = [Number(process.argv[1]), process.argv[2]];
  const bytes = Buffer.alloc(size, 0x61);
  const text = bytes.toString('latin1');
  const headers = ['Content-Type', 'application/json', 'Content-Length', String(size), 'ETag', 'W/"x"'];
  createServer((req, res) => {
    res.writeHead(200, headers);
    if (mode === 'string') res.end(text, 'latin1');
    else res.end(bytes);
  }).listen(${PORT}, '127.0.0.1', () => process.send('ready'));`;

const wrk = (seconds: number) =>
  Number(
    /Requests\/sec:\s+([\d.]+)/.exec(
      execFileSync(
        'taskset',
        ['-c', String(CORES.client), WRK, '-t1', '-c10', `-d${seconds}s`, `http://127.0.0.1:${PORT}/`],
        {
          encoding: 'utf8',
        },
      ),
    )?.[1],
  );

for (const size of sizes.length ? sizes : [500, 4000, 8000, 12000, 20000, 35000, 60000]) {
  const rps: Record<string, number[]> = { string: [], buffer: [] };
  // Each way twice, alternating, so a drift of the machine touches both.
  for (const mode of ['string', 'buffer', 'string', 'buffer']) {
    const server = spawn('taskset', ['-c', String(CORES.server), process.execPath, '-e', SERVER, String(size), mode], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    await new Promise((resolve) => server.once('message', resolve));
    wrk(1);
    rps[mode].push(wrk(4));
    server.kill();
    await new Promise((resolve) => server.once('exit', resolve));
  }
  const best = (list: number[]) => Math.round(Math.max(...list));
  console.log(
    `${String(size).padStart(6)} B: string ${best(rps.string)} rps, buffer ${best(rps.buffer)} rps (buffer/string ${round(best(rps.buffer) / best(rps.string), 2)})`,
  );
}
