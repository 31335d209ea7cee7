# The catalog API in a container: `docker build -t series-catalog .` then
# `docker run -p 3000:3000 -v catalog-var:/app/var --stop-timeout 15 series-catalog` (a stop
# timeout above SHUTDOWN_GRACE_SECONDS, so docker stop never kills a draining server). See
# docs/deploy.md.
# A test replays these steps without Docker (test/dockerfile.test.ts): keep them plain.

FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
# The typed client, which the build packs for GET /api/client.tgz (docs/clients.md).
COPY clients ./clients
RUN npm run build && npm prune --omit=dev

FROM node:26-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/.npmrc /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The command-line tools (npm run accounts, check-data) run from the sources through tsx;
# with them, `npm start` also finds the build current (platforms that run it).
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/src ./src
COPY --from=build /app/clients ./clients
COPY data ./data
RUN mkdir -p var && chown 1000:1000 var
USER 1000:1000
VOLUME ["/app/var"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ping').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself as PID 1: it handles SIGTERM (docker stop) and SIGINT by finishing in-flight requests.
CMD ["node", "--no-memory-reducer", "--enable-source-maps", "dist/main.js"]
