# syntax=docker/dockerfile:1

# The site's production image: built with every dependency, run with production dependencies
# only, as the unprivileged `node` user. There is no Docker engine on the development machines:
# tests/integration/docker-image.test.ts lints this file and replays its build, under this very
# Node version, then serves the result and checks /healthz, /, the ledger in /data and a clean
# stop.
#
#   docker build -t darb-site .
#   docker run --rm -p 3000:3000 -v darb-data:/data -e SITE_URL=https://darb.ae … darb-site
#   docker exec <container> npm run leads      # leads by campaign, read from /data
#   docker exec <container> npm run experiments  # the A/B test's report (docs/experiments.md);
#                                                # EXPERIMENTS_FILE=experiments.example.json is
#                                                # the image's own example
#
# Bump NODE_VERSION (an exact 24.x release, so every build of one commit is the same) with
# `--build-arg NODE_VERSION=…` or here; the test installs the same version to replay the build.
ARG NODE_VERSION=24.21.0

# 1. Build: every dependency from the lockfile, then `npm run build` (`remix build`, the compile
#    hint and the app's own server: build/, public/build/ and server-build/).
#    No install scripts run; nothing the site or its build uses needs one.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

# 2. Production dependencies only, installed apart so no build tool reaches the final stage.
FROM node:${NODE_VERSION}-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# 3. An empty directory for the final stage to copy as the data volume's mount point: the final
#    stage runs no command, so it cannot mkdir or chown one itself.
FROM node:${NODE_VERSION}-bookworm-slim AS data-dir
WORKDIR /data

# 4. Runtime: the build, public files and production dependencies, owned by root and read-only
#    to the `node` user the server runs as. Its one writable place is DATA_DIR (/data, below).
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# DATA_DIR: the lead ledger (leads.jsonl, and leads.lock naming the writing process); the app's
# default, ./data, would be under the read-only /app. No update check when an operator runs
# `npm run leads` in the container: a production container has no reason to call the registry.
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
# package.json brings the scripts, so `npm run leads` (node server-build/leads-report.js, built
# with the server) runs here with the image's npm.
COPY --from=prod-deps /app/package.json ./package.json
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server-build ./server-build
COPY --from=build /app/public ./public
# The example A/B test, so that EXPERIMENTS_FILE=experiments.example.json runs it, and
# `npm run experiments` reports it, in the container as in a checkout (docs/experiments.md).
COPY --from=build /app/experiments.example.json ./experiments.example.json
# Owned by node, so the server can write it; Docker fills a new named volume from it, owner
# included, so the volume is writable too.
COPY --from=data-dir --chown=node:node /data /data
# A volume: the ledger lives outside the container's layer, writable under a read-only root
# filesystem. Name it (`-v darb-data:/data`, as compose.yaml does) so leads outlive the
# container, and give each replica its own: one writer per directory (deploy/README.md).
VOLUME ["/data"]
USER node
EXPOSE 3000
# Node's own fetch, so the image needs no curl or wget. Leave HOST unset in the container.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 and gets `docker stop`'s SIGTERM itself: the server then stops accepting,
# finishes open requests, sends what analytics it holds and exits 0 (server/shutdown.ts).
CMD ["node", "server-build/index.js"]
