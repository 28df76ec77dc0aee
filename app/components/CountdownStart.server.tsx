import { COUNTDOWN_START_SCRIPT } from "~/document/countdown-start.server";
import { useNonce } from "~/hooks/use-nonce";

/** The countdown's start script (document/countdown-start.server.ts), in the countdown-notes part. */
export function CountdownStart() {
  return (
    <script
      nonce={useNonce()}
      // Our own constant script, nothing from a request in it.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: COUNTDOWN_START_SCRIPT }}
    />
  );
}
