// Planted for the layering check: src/lesson reaches src/store only through the libraries
// it uses (report, world), so including it directly needs its own USES line.
#include "src/store/db.h"
