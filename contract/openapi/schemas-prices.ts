/** The schemas of model prices (docs/CONTRACT.md section 12), gathered for the catalog; each is declared with its type in the contract file it comes from. */

export {
  appliedPriceSchema,
  modelPricesSchema,
  priceCatalogSchema,
  priceOverridePageSchema,
  priceOverrideSchema,
  priceSourceSchema,
} from "../prices";
