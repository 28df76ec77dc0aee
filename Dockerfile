# syntax=docker/dockerfile:1

# The site's production image: built with every dependency, run with production dependencies
# only, as the unprivileged `node` user. There is no Docker engine on the development machines:
# tests/integration/docker-image.test.ts lints this file and replays its build, under this very
# Node version, then serves the result and checks /healthz, / and a clean stop.
#
#   docker build -t darb-site .
#   docker run --rm -p 3000:3000 -e SITE_URL=https://darb.ae … darb-site
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

# 3. Runtime: the build, public files and production dependencies, owned by root and read-only
#    to the `node` user the server runs as (it writes nothing to disk).
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=prod-deps /app/package.json ./package.json
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/server-build ./server-build
COPY --from=build /app/public ./public
USER node
EXPOSE 3000
# Node's own fetch, so the image needs no curl or wget. Leave HOST unset in the container.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node is PID 1 and gets `docker stop`'s SIGTERM itself: the server then stops accepting,
# finishes open requests, sends what analytics it holds and exits 0 (server/shutdown.ts).
CMD ["node", "server-build/index.js"]
