/** Whether a request path is the portal's (docs/portal.md). */
export const isPortalPath = (path: string): boolean => path === "/portal" || path.startsWith("/portal/");
