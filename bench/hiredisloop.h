#pragma once

#include "redis/connectionoptions.h"

#include <QByteArray>
#include <QList>
#include <QString>

struct redisContext;

namespace LockScope::Bench {

struct Rate
{
    qint64 count = 0;
    qint64 elapsedNs = 0;
    double perSecond() const { return elapsedNs > 0 ? double(count) * 1e9 / double(elapsedNs) : 0.0; }
    double microsEach() const { return count > 0 ? double(elapsedNs) / 1e3 / double(count) : 0.0; }
};

// What one lock+unlock cycle puts on the wire, as LockClient sends it for an explicit lease.
struct LockCycle
{
    QByteArray name;
    QByteArray owner; // "<uuid>:<token>"
    qint64 leaseMs = 30000;
    int latchTtlMs = 16000;
    QByteArray publishCommand = "PUBLISH";
};

// A blocking hiredis connection to the server the options name (plain TCP only; reads time out like the connect):
// the baselines' one way in. nullptr with *error set when it cannot connect.
redisContext *connectHiredis(const ConnectionOptions &options, const QString &who, QString *error);

// The reference loops: hiredis's synchronous API on one blocking socket, nothing between the caller and
// the wire. Whatever our client takes beyond these figures is the cost of our own layers.
class HiredisLoop
{
public:
    HiredisLoop() = default;
    ~HiredisLoop();
    HiredisLoop(const HiredisLoop &) = delete;
    HiredisLoop &operator=(const HiredisLoop &) = delete;

    // Plain TCP only (hiredis 0.14 has no TLS); AUTH and SELECT as the URL asks.
    bool connect(const ConnectionOptions &options, QString *error);
    // SCRIPT LOAD of our acquire and release scripts, so EVALSHA never meets NOSCRIPT during a measurement.
    bool loadScripts(QString *error);

    // PING one at a time until deadlineNs (nowNs() clock).
    Rate pingUntil(qint64 deadlineNs, QString *error);
    // Lock+unlock cycles one at a time until deadlineNs: EVALSHA acquire, EVALSHA release, then the latch DEL
    // appended without waiting, its reply read lazily before the next acquire's, exactly as LockClient pipelines it.
    Rate lockCyclesUntil(const LockCycle &cycle, qint64 deadlineNs, QString *error);

    // One command outside any measurement; the reply as text ("nil", an integer, a status). Error replies fail.
    bool run(const QList<QByteArray> &argv, QByteArray *reply, QString *error);

private:
    bool drainPending(QString *error);

    redisContext *m_context = nullptr;
    int m_pending = 0; // appended latch DELs whose replies are still unread
};

} // namespace LockScope::Bench
