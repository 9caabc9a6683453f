// Where the server's log lines go: stdout, in batches of up to 16 kB and at least once a second,
// like nginx's `access_log … buffer=16k flush=1s`. A write per request line cost as much as serving
// an API read, and pino's own async destination re-measures its whole buffer on every line (~5 µs
// a request under load). Writes to stdout are synchronous on Linux, so a batch is one write(2).

export interface LogOut {
  write(line: string): boolean;
  /** Writes what is buffered now (before a message a reader waits for, and at exit). */
  flush(): void;
}

export function batchedStdout(): LogOut {
  // A closed stdout (the reader went away) must not stop the store.
  process.stdout.on('error', () => {});
  const out = batched((batch) => process.stdout.write(batch));
  process.on('exit', out.flush);
  return out;
}

export function batched(writeBatch: (batch: string) => void, { maxBytes = 16_384, flushMs = 1000 } = {}): LogOut {
  let lines: string[] = [];
  let size = 0;
  const flush = () => {
    if (!lines.length) return;
    const batch = lines.join('');
    lines = [];
    size = 0;
    writeBatch(batch);
  };
  setInterval(flush, flushMs).unref();
  return {
    write(line) {
      lines.push(line);
      size += line.length;
      if (size >= maxBytes) flush();
      return true;
    },
    flush,
  };
}
