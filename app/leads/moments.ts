/** A lead's moments a network may be told of: the tap, the chat it starts, a later stage. */
export const MOMENTS = ["tap", "chat", "stages"] as const;
export type Moment = (typeof MOMENTS)[number];
