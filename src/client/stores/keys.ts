/** localStorage keys of the persisted stores (SPEC §3: admin info, member info, config, tab view). */
export const STORE_ADMIN_INFO = "adminInfo";
export const STORE_USER_INFO = "userInfo";
export const STORE_CONFIG = "storeConfig";
export const STORE_TAB_VIEW = "storeTabViewConfig";
export const STORE_SITE_CONFIG = "siteConfig";
/** The terminal's persisted part (showDot, taskList, automaticCleanupTask). */
export const STORE_TERMINAL = "storeTerminal";
/** Each admin's list settings per screen (shown columns, page size). */
export const STORE_LIST_VIEWS = "storeListViews";
