#pragma once
// A planted layering violation for tests/layering/expect_violation.cmake: the store sits
// below the consumer, so this include must be reported. Never compiled.
#include "src/consumer/consumer.h"
#include "src/store/db.h"
