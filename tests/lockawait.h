#pragma once

#include <QTest>

#include <optional>

namespace LockScope::Test {

// Starts an asynchronous call and pumps the event loop until its callback ran (poll with a deadline).
template <typename T, typename Start> T await(Start start, int timeoutMs = 15000)
{
    std::optional<T> result;
    start([&](const T &r) { result = r; });
    [&] { QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), timeoutMs); }();
    return result.value_or(T {});
}

} // namespace LockScope::Test
