/**
 * The settings the process runs with, as one object. Its fields are declared at the top, where
 * the features' settings are composed (settings.server.ts adds them to this interface, as Remix's
 * AppLoadContext is filled in), so a feature reads its slice of the settings from down here
 * without importing anything above it.
 */
// biome-ignore lint/suspicious/noEmptyInterface: settings.server.ts declares the fields.
export interface Config {}
