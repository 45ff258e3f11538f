// Types of the pure k6 module sps-body.js, for the runner's test of its production-data file.
export function productionDataJson(name: string, archive: ArrayBuffer | Uint8Array): string;
export function spsBody(user: { ex_id: string | number; ps_id: string | number }, productionData: string): string;
