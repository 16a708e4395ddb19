/** The schemas of model prices (docs/CONTRACT.md section 12): each answer's is declared once, with its type, in the contract's own files. */

export { appliedPriceSchema, modelPricesSchema, priceCatalogSchema, priceOverridePageSchema, priceOverrideSchema, priceSourceSchema } from "../prices";
