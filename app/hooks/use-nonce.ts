import { createContext, useContext } from "react";

/**
 * The CSP nonce of the response being rendered. Only the server knows it: browsers hide a
 * nonce from the page, so the client renders "" and hydration sees the same value.
 */
export const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
