/** Client-safe facts about the offline embedder, for the Knowledge page. */
export const OFFLINE_EMBEDDER_ID = "offline/hash-embed";
export const OFFLINE_EMBEDDER_NOTICE =
  "The built-in offline embedder matches words, not meaning: it hashes words and word pairs into a vector, so it finds chunks that share words with the query but not paraphrases or synonyms. Choose an embedding model from a provider for semantic search.";
