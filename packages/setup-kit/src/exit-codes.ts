/** Exit codes of the management commands (the hook entry itself always exits 0). */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
