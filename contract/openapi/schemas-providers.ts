/** The schemas of the model provider endpoints, gathered for the catalog; each is declared with its type in the contract file it comes from. */

export { providerConnectionCheckSchema, providerListSchema } from "../providers";
