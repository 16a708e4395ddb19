export { calculatorToolProvider } from "./calculator-tool";
