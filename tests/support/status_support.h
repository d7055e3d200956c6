#pragma once
// REQUIRE_OK(status) / CHECK_OK(status): pass when an eosim::Status (or store:: / live::
// Status) is ok, and print its message when it is not - Catch shows both sides of the
// comparison, so a failing test says why the operation failed.

#include <catch2/catch.hpp>

#include <string>

#define REQUIRE_OK(...) REQUIRE((__VA_ARGS__).message == std::string())
#define CHECK_OK(...) CHECK((__VA_ARGS__).message == std::string())
