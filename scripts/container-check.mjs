// Lints the Dockerfile, .dockerignore and docker-compose.yml without a Docker engine (none runs on our machines and
// hadolint is neither in Debian nor on npm as more than a binary downloader). Asserts what the issue asks of the
// container; prints every problem and exits 1 when there is one. Run: node scripts/container-check.mjs
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const problems = [];
const fail = (message) => problems.push(message);

// ---- Dockerfile: instructions with their continuation lines joined, comments dropped.
const instructions = readFileSync('Dockerfile', 'utf8')
  .replace(/\\\r?\n/g, ' ')
  .split(/\r?\n/)
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const [keyword, ...rest] = line.split(/\s+/);
    return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
  });

const stages = [];
for (const instruction of instructions) {
  if (instruction.keyword === 'FROM') stages.push({ from: instruction.args, instructions: [] });
  else stages.at(-1)?.instructions.push(instruction);
}
if (!stages.length) fail('Dockerfile: no FROM');

const PINNED = /^[\w./-]+:(v?\d+\.\d+\.\d+[\w.-]*)(@sha256:[a-f0-9]{64})?$|@sha256:[a-f0-9]{64}$/;
const stageNames = new Set(stages.map((stage) => /\sAS\s+(\S+)/i.exec(stage.from)?.[1]).filter(Boolean));
for (const stage of stages) {
  const image = stage.from.split(/\s+/)[0];
  if (stageNames.has(image)) continue;
  if (!PINNED.test(image)) fail(`Dockerfile: FROM ${image} is not pinned to a release (x.y.z tag or digest)`);
  const node = /^node:(\d+)\.\d+\.\d+-(\w+)-slim$/.exec(image);
  if (!node) fail(`Dockerfile: FROM ${image} is not an official node slim image (node:<x.y.z>-<debian>-slim)`);
  else if (Number(node[1]) % 2 !== 0 || Number(node[1]) < 24) fail(`Dockerfile: Node ${node[1]} is not a supported LTS line (24 or later, even)`);
}

const final = stages.at(-1)?.instructions ?? [];
const users = final.filter((i) => i.keyword === 'USER').map((i) => i.args);
const cmdIndex = final.findIndex((i) => i.keyword === 'CMD' || i.keyword === 'ENTRYPOINT');
const lastUserIndex = final.map((i) => i.keyword).lastIndexOf('USER');
if (!users.length) fail('Dockerfile: the final stage runs as root (no USER)');
else if (/^(root|0)(:|$)/.test(users.at(-1))) fail(`Dockerfile: the final stage runs as ${users.at(-1)}`);
else if (users.at(-1) !== 'node') fail(`Dockerfile: the final stage should run as the image's node user (got ${users.at(-1)})`);
if (cmdIndex === -1) fail('Dockerfile: no CMD/ENTRYPOINT in the final stage');
else if (lastUserIndex > cmdIndex) fail('Dockerfile: USER comes after CMD');
if (cmdIndex !== -1 && !final[cmdIndex].args.startsWith('[')) fail('Dockerfile: CMD should use the exec (JSON) form so signals reach node');
const healthcheck = final.find((i) => i.keyword === 'HEALTHCHECK');
if (!healthcheck) fail('Dockerfile: no HEALTHCHECK in the final stage');
else if (!healthcheck.args.includes('/api/health/ready')) fail('Dockerfile: HEALTHCHECK does not probe /api/health/ready');
if (!final.some((i) => i.keyword === 'ENV' && /NODE_ENV=production/.test(i.args))) fail('Dockerfile: the final stage does not set NODE_ENV=production');
for (const stage of stages) {
  for (const i of stage.instructions) {
    if (i.keyword === 'ADD' && /https?:\/\//.test(i.args)) fail(`Dockerfile: ADD of a URL (${i.args}); download in a RUN step with a checksum`);
    if (i.keyword === 'RUN' && /\bsudo\b/.test(i.args)) fail('Dockerfile: sudo in RUN');
    if (i.keyword === 'RUN' && /npm install -g [\w@/.-]*pnpm(\s|$)/.test(i.args)) fail('Dockerfile: pnpm installed without a version');
    if (i.keyword === 'RUN' && /npm install -g [\w@/.-]*pnpm@\d+(\s|$)/.test(i.args)) fail('Dockerfile: pnpm pinned to a major only');
  }
}

// ---- .dockerignore: the host's installs, builds, data (secrets), .env and history never enter the build context.
let ignore = [];
try {
  ignore = readFileSync('.dockerignore', 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
} catch {
  fail('.dockerignore is missing');
}
const REQUIRED_IGNORES = {
  node_modules: ['node_modules', '**/node_modules'],
  data: ['data', '**/data'],
  '.env': ['.env', '**/.env'],
  dist: ['dist', '**/dist'],
  '.git': ['.git'],
  // The signer's env file and key files (docs/operate/signer.md): on the host only, passed in by compose.
  'signer.env': ['signer.env', '**/signer.env'],
  secrets: ['secrets', '**/secrets'],
};
for (const [what, patterns] of Object.entries(REQUIRED_IGNORES)) {
  if (!patterns.some((p) => ignore.includes(p) || ignore.includes(`${p}/`))) fail(`.dockerignore does not exclude ${what}`);
}
if (ignore.some((l) => /^!\.env$/.test(l) || /^!\*\*\/data/.test(l) || /^!(\*\*\/)?(signer\.env|secrets)$/.test(l))) {
  fail('.dockerignore re-includes .env, data, signer.env or secrets');
}

// ---- docker-compose.yml: pinned images, restart policies, the app's healthcheck on readiness.
const compose = parse(readFileSync('docker-compose.yml', 'utf8'));
const services = Object.entries(compose?.services ?? {});
if (!services.length) fail('docker-compose.yml: no services');
const RESTART = new Set(['always', 'unless-stopped', 'on-failure']);
// The image built here (by a service with `build`) may run as a second service with its own command (the signer).
const builtHere = new Set(services.filter(([, service]) => service.build && service.image).map(([, service]) => service.image));
for (const [name, service] of services) {
  if (service.image && !service.build && builtHere.has(service.image)) {
    if (!service.healthcheck?.test) fail(`docker-compose.yml: ${name} (the image built here, another command) has no healthcheck`);
    if (service.ports?.length) fail(`docker-compose.yml: ${name} publishes ports; the image built here runs its second command inside the network only`);
    if (!RESTART.has(String(service.restart ?? '').replace(/:.*/, ''))) fail(`docker-compose.yml: ${name} has no restart policy`);
    // The signer reads signer.env (never the app's .env): compose passes the host's ./signer.env in as its environment.
    const envFiles = [].concat(service.env_file ?? []).map((entry) => (typeof entry === 'string' ? entry : entry.path));
    if (
      []
        .concat(service.command ?? [])
        .join(' ')
        .includes('dist/signer.js') &&
      !envFiles.some((file) => /^(\.\/)?signer\.env$/.test(file))
    ) {
      fail(`docker-compose.yml: ${name} runs the signer without env_file ./signer.env`);
    }
    continue;
  }
  if (service.image && !service.build && !PINNED.test(service.image) && !/^[\w./-]+:v?\d+\.\d+(\.\d+)?(-[\w.]+)?$/.test(service.image)) {
    fail(`docker-compose.yml: ${name} uses ${service.image}, not pinned to a release`);
  }
  if (service.image && /:latest$|^[^:]+$/.test(service.image) && !service.build) fail(`docker-compose.yml: ${name} uses an unpinned image`);
  if (!RESTART.has(String(service.restart ?? '').replace(/:.*/, ''))) fail(`docker-compose.yml: ${name} has no restart policy`);
  if (service.build) {
    const test = [].concat(service.healthcheck?.test ?? []).join(' ');
    if (!test.includes('/api/health/ready')) fail(`docker-compose.yml: ${name} (built here) has no healthcheck on /api/health/ready`);
    for (const [dependency, condition] of Object.entries(service.depends_on ?? {})) {
      if (compose.services[dependency]?.healthcheck && condition?.condition !== 'service_healthy') {
        fail(`docker-compose.yml: ${name} should wait for ${dependency} to be healthy`);
      }
    }
  }
}

if (problems.length) {
  console.error(`Container check: ${problems.length} problem(s)\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(
  `Container check: Dockerfile (${stages.length} stages, pinned bases, USER ${users.at(-1)}, HEALTHCHECK on readiness), .dockerignore and docker-compose.yml (${services.length} services pinned, restart policies, app healthcheck) pass.`,
);
