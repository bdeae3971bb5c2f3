# syntax=docker/dockerfile:1
# Coinpurse: API + built client on one port, as the unprivileged `node` user.
# Base: Node.js 24 LTS ("Krypton") on Debian 12 slim, pinned to a release; bump deliberately (scripts/container-check.mjs
# refuses unpinned or `latest` images). Node.js 26 became the active LTS line in October 2026: move once CI runs on it.
FROM node:24.16.0-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@10.34.9 && npm cache clean --force
COPY pnpm-workspace.yaml package.json pnpm-lock.yaml .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
RUN pnpm install --frozen-lockfile
# .dockerignore keeps host node_modules, dist, data (PGlite, secrets), .env and .git out of this copy.
COPY . .
# The server's build is one bundle (dist/server.js, started by dist/main.js); the production dependencies still come
# along for the few packages it leaves outside (PGlite's wasm, swagger-ui-dist's and cryptocurrency-icons' files).
RUN pnpm build && pnpm --filter @coinpurse/server deploy --prod --legacy /out

FROM node:24.16.0-bookworm-slim
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data CLIENT_DIR=/app/client DOCS_DIR=/app/docs LOG_FORMAT=json
WORKDIR /app
# Code stays owned by root (read-only for the app); only the data volume is the node user's.
COPY --from=build /out /app
COPY --from=build /app/packages/server/drizzle /app/drizzle
COPY --from=build /app/packages/client/dist /app/client
COPY --from=build /app/docs /app/docs
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# Readiness: the database answers and is migrated (the image has no curl; Node's fetch does it).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
