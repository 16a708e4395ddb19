export { FixListButton } from "./fix-list-button";
