#pragma once

#include "demo/demoevent.h"
#include "redis/connectionoptions.h"

#include <QObject>
#include <QTimer>

namespace LockScope {

class DemoActor;

struct DemoClientsOptions
{
    int clients = 6; // 1..100
    int locks = 4; // 1..100
    // Short, so renewals (every third of it) and the crashed holder's expiry show within seconds.
    int watchdogTimeoutMs = 6000;
};

// Simulated Redisson-compatible clients for demos and screenshots: each has its own client id and plays one
// role on a handful of "demo:*" locks, so that holds, watchdog renewals, contention, reentrancy and one
// crashed holder whose lease runs out are all visible within seconds. Client 1 holds with the watchdog,
// client 2 waits on contended locks, client 3 crashes while holding, then fixed leases and reentrant holds;
// clients 7-9 share demo:report as two readers and a writer, clients 10-12 queue on the fair lock demo:payroll. Lives
// in one thread; everything stops when it is destroyed.
class DemoClients : public QObject
{
    Q_OBJECT
public:
    using Options = DemoClientsOptions;

    explicit DemoClients(ConnectionOptions connection, Options options = {}, QObject *parent = nullptr);
    ~DemoClients() override;

    void start();
    // Stops starting anything new and releases what is held (at most a few seconds), then emits stopped()
    // (never before returning).
    void stop();
    bool isRunning() const { return m_running; }

    const ConnectionOptions &connection() const { return m_connection; }
    const Options &options() const { return m_options; }
    QList<QByteArray> lockNames() const { return m_names; }

    static QList<QByteArray> makeLockNames(int count);
    static DemoEvent::Role roleOf(int clientNumber); // 1-based
    // "watchdog-holder", ...: for JSON, never translated.
    static QString roleKey(DemoEvent::Role role);
    static QString roleName(DemoEvent::Role role);
    // One translated line for logs: "client 3 (crashing holder) acquired demo:payments (lease 6000 ms, watchdog)".
    static QString describe(const DemoEvent &event);

signals:
    void demoEvent(const LockScope::DemoEvent &event);
    void stopped();

private:
    void onActorFinished();

    ConnectionOptions m_connection;
    Options m_options;
    QList<QByteArray> m_names;
    QList<DemoActor *> m_actors;
    QTimer m_stopDeadline;
    bool m_running = false;
    bool m_stopping = false;
};

} // namespace LockScope
