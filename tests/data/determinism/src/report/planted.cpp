// Not reported: floating point in a folder that only prints (a percentage).
double share(long part, long whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }
