/** The portal's icon (the brand mark), served at /portal/assets/favicon.svg. */
export const PORTAL_FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d5fbf"/><text x="16" y="23" font-family="Arial, sans-serif" font-size="20" font-weight="700" fill="#fff" text-anchor="middle">H</text></svg>`;
