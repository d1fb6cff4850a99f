// Preloaded into the soak test's server process (node --expose-gc --require):
// on SIGUSR2 it runs a full GC and prints the V8 heap in use, so the soak can
// compare heap at the start and the end without a debug hook in the server.
'use strict';
process.on('SIGUSR2', () => {
  if (typeof global.gc === 'function') global.gc();
  const mb = process.memoryUsage().heapUsed / 1024 / 1024;
  process.stderr.write(`questline-heap-mb ${mb.toFixed(1)}\n`);
});
