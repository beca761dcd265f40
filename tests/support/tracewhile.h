#pragma once

// Tracing a server while a test's clients act, as `lockscope-cli trace` would: the findings name the connections that
// sent each owner's commands (the liveness verdict's "its connection closed" needs them). Include only from test
// executables.
#include "clients/tracesession.h"
#include "redis/redisrouter.h"

#include <QSignalSpy>
#include <QTest>

#include <functional>

namespace LockScope::Test {

// Traces the server while `during` runs (it should send the holder's commands), then stops: the findings.
inline TraceFindings traceWhile(const QString &url, const std::function<void()> &during)
{
    RedisRouter router(ConnectionOptions::fromUrl(url));
    TraceSession trace(&router, TraceSession::maxDurationMs);
    QSignalSpy started(&trace, &TraceSession::started);
    QSignalSpy finished(&trace, &TraceSession::finished);
    trace.start();
    if (!started.wait(30000)) {
        QTest::qFail("the trace never started", __FILE__, __LINE__);
        return {};
    }
    during();
    trace.stop();
    if (finished.isEmpty() && !finished.wait(30000)) {
        QTest::qFail("the trace never finished", __FILE__, __LINE__);
        return {};
    }
    const RedisError error = finished.first().at(1).value<RedisError>();
    if (error.isError())
        QTest::qFail(qPrintable(error.message()), __FILE__, __LINE__);
    return finished.first().at(0).value<TraceFindings>();
}

} // namespace LockScope::Test
