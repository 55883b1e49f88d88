export { escapeControls, forMarkdownCode, forMarkdownLine, forModelName, forModelText, forShellArg, forTerminal, hasControlCharacters, jsonForTerminal } from './text-safety.ts';
