import { RENDER_BEFORE_JUMPS_SCRIPT } from "~/components/render-before-jumps.server";
import { useNonce } from "~/hooks/use-nonce";

/**
 * The script that renders every section before a jump (components/render-before-jumps.server.ts),
 * as a static part: the browser keeps the server's element and never runs it again.
 */
export function RenderBeforeJumps() {
  return (
    <script
      nonce={useNonce()}
      // Our own constant script, nothing from a request in it.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: RENDER_BEFORE_JUMPS_SCRIPT }}
    />
  );
}
