// Planted: floating point in the kernel (a double in a comment is fine).
inline double half(long n) { return n / 2.0; }
