// A planted stale include for tests/layering/expect_violation.cmake: src/lab/ is no
// library folder any more. The other includes are allowed. Never compiled.
#include "src/consumer/consumer.h"
#include "src/lab/world.h"
#include "src/orders/order_message.h"
