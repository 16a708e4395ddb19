export { AppShell } from "./app-shell";
export { SettingsIndex } from "./settings-index";
export { Breadcrumbs, type Crumb } from "./breadcrumbs";
export { isActive, NAV_ITEMS, SETTINGS_CRUMB, SETTINGS_PAGES, type NavItem } from "./navigation";
