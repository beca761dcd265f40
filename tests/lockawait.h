#pragma once

#include "lock/lockclient.h"

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

// One acquire or release, waited for; what most lock tests do step by step.
inline AcquireResult acquire(LockClient &client, const AcquireRequest &request)
{
    return await<AcquireResult>([&](auto done) { client.acquire(request, done); });
}

inline ReleaseResult release(
    LockClient &client, const QByteArray &name, const QByteArray &owner, LockMode kind = LockMode::Reentrant)
{
    return await<ReleaseResult>([&](auto done) { client.release(name, owner, done, kind); });
}

} // namespace LockScope::Test
