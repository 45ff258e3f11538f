// The SPS request body in the original SPA's JSON format (docs/design.md, HTTP contract): production_data.data is
// a map from byte index to byte value. The production_data part is serialised once per test.

/** JSON text of production_data for the archive bytes (ArrayBuffer or Uint8Array). */
export function productionDataJson(name, archive) {
  const bytes = archive instanceof Uint8Array ? archive : new Uint8Array(archive);
  const parts = new Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) parts[i] = `"${i}":${bytes[i]}`;
  return `{"name":${JSON.stringify(name)},"size":${bytes.length},"data":{${parts.join(',')}}}`;
}

/** Full body for one student: ex_id and ps_id come from the seeded CSV row. */
export function spsBody(user, productionData) {
  return `{"ex_id":${Number(user.ex_id)},"ps_id":${Number(user.ps_id)},"production_data":${productionData}}`;
}
