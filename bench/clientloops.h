#pragma once

#include "hiredisloop.h"

#include <QObject>

#include <functional>

namespace LockScope {
class LockClient;
}

namespace LockScope::Bench {

// The same loops as HiredisLoop, through our own client: one request at a time, each sent from the previous
// one's callback, so the figures include everything between the caller and the wire (event loop, RESP codec,
// callbacks, lock bookkeeping).
class ClientLoops : public QObject
{
    Q_OBJECT
public:
    using Done = std::function<void(const Rate &rate)>;

    explicit ClientLoops(LockClient *client, QObject *parent = nullptr);

    // PING through the client's command connection.
    void pingUntil(qint64 deadlineNs, Done done);
    // acquire (explicit lease, try once) then release, cycle after cycle.
    void lockCyclesUntil(const LockCycle &cycle, qint64 deadlineNs, Done done);

private:
    void nextPing();
    void nextCycle();
    void finish();

    LockClient *m_client;
    LockCycle m_cycle;
    QByteArray m_token;
    qint64 m_deadlineNs = 0;
    qint64 m_startNs = 0;
    qint64 m_count = 0;
    Done m_done;
};

} // namespace LockScope::Bench
