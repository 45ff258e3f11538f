/** Job id of a production: one job per production, whatever the redeliveries (BullMQ dedups on it). */
export const messageIdOf = (productionId: number) => `production-${productionId}`;
