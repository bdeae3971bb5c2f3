# Coinpurse: API + built client on one port.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN npm install -g pnpm@10
COPY pnpm-workspace.yaml package.json pnpm-lock.yaml .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
RUN pnpm install --frozen-lockfile
COPY . .
RUN pnpm build && pnpm --filter @coinpurse/server deploy --prod --legacy /out

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PORT=3000 DATA_DIR=/data CLIENT_DIR=/app/client
COPY --from=build /out /app
COPY --from=build /app/packages/server/drizzle /app/drizzle
COPY --from=build /app/packages/client/dist /app/client
VOLUME /data
EXPOSE 3000
CMD ["node", "dist/main.js"]
