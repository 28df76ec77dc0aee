/**
 * `node server-build/index.js`: the production server (npm start, the container, the tests and
 * the bench all run this). The server itself is in the Remix build with the app
 * (server/main.ts): this imports build/index.js once and starts it.
 */
import { exitWithBuildError, loadBuild, root } from "./load-build";

const { build, server } = await loadBuild("startServer").catch(exitWithBuildError);
await server.startServer(build, root);
