/**
 * Every place a lead can go, in the order the privacy notice names them
 * (docs/decisions/025-destination-registry.md). The settings, the outboxes, /metrics, the stats
 * line and the privacy notice all read this list: a network is added by its module here and its
 * words in content/legal.ts, in each language. `registerDestination` adds one that is not in
 * the list (a stand-in network the tests bring), before the settings are read.
 */
import {
  type Configured,
  configure,
  type Destination,
} from "~/analytics/destinations/destination.server";
import { ga4 } from "~/analytics/destinations/ga4.server";
import { google } from "~/analytics/destinations/google.server";
import { meta } from "~/analytics/destinations/meta.server";
import { snap } from "~/analytics/destinations/snap.server";
import { tiktok } from "~/analytics/destinations/tiktok.server";
import { whatsappReply } from "~/analytics/destinations/whatsapp-reply.server";
import type { AnySetting, Env } from "~/platform/setting-readers.server";

/** A destination as the registry keeps it: its name, its variables, and how it is turned on. */
type Entry = {
  name: string;
  names: readonly string[];
  declared: readonly AnySetting[];
  read: (env: Env) => Configured | null;
};

function entryOf<S>(destination: Destination<S>): Entry {
  return {
    name: destination.name,
    names: destination.settings.names,
    declared: destination.settings.declared ?? [],
    read(env) {
      const settings = destination.settings.read(env);
      return settings === null ? null : configure(destination, settings);
    },
  };
}

const entries: Entry[] = [
  entryOf(ga4),
  entryOf(meta),
  entryOf(tiktok),
  entryOf(snap),
  entryOf(google),
  entryOf(whatsappReply),
];

/** Adds a destination to the list (its name must be new): settings read later include it. */
export function registerDestination<S>(destination: Destination<S>): void {
  if (entries.some((known) => known.name === destination.name)) {
    throw new Error(`a destination named ${destination.name} is registered already`);
  }
  entries.push(entryOf(destination));
}

/** Every destination's name, in order. */
export const destinationNames = () => entries.map((entry) => entry.name);

/** Every variable the destinations read, for docs/settings.md and compose's. */
export const destinationSettingNames = () => entries.flatMap((entry) => entry.names);

/** The settings the destinations declare (a stand-in of the tests declares none). */
export const destinationSettings = () => entries.flatMap((entry) => entry.declared);

/** The destinations these settings turn on, each with its settings read; a bad one throws. */
export function readDestinations(env: Env): Configured[] {
  return entries.flatMap((entry) => entry.read(env) ?? []);
}
