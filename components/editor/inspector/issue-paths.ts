/**
 * Validation issues are filed per block with paths relative to the block (`config.userPrompt`,
 * `name`); field rows match the `config.` ones by their key.
 */
export const blockIssuePrefix = "config.";
