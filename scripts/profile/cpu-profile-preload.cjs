// Preload that CPU-profiles the built server (dist/main.js) from its start until SIGTERM, then writes the profile to
// $PROFILE_DIR/server-<pid>.cpuprofile and exits. `--cpu-prof` is refused in NODE_OPTIONS; a preload is not, so a bench
// that spawns the server with its own environment profiles it unchanged, e.g.:
//   BENCH_ROUNDS=1 PROFILE_DIR=/tmp/prof NODE_OPTIONS="--require $PWD/scripts/profile/cpu-profile-preload.cjs" \
//     node scripts/bench/swaps.mjs
// then `node scripts/profile/swap-phases.cjs /tmp/prof/server-*.cpuprofile packages/server/dist/server.js`.
if (process.argv[1] && process.argv[1].endsWith('dist/main.js')) {
  const inspector = require('node:inspector');
  const fs = require('node:fs');
  const dir = process.env.PROFILE_DIR || '.';
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable', () => session.post('Profiler.setSamplingInterval', { interval: 500 }, () => session.post('Profiler.start')));
  process.prependOnceListener('SIGTERM', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error) fs.writeFileSync(`${dir}/server-${process.pid}.cpuprofile`, JSON.stringify(result.profile));
      process.exit(0);
    });
  });
}
